# SPDX-License-Identifier: MIT
"""The workloads of the bundled samples, written against the Recorder (recorder.py).

Each case mirrors one script of tools/collect/ (same ops, shapes and streams), with device times
modelled for one NVIDIA H100 SXM (about 3 TB/s of HBM bandwidth reached by large elementwise
kernels, a few microseconds of launch latency). Kernel names follow what PyTorch 2.8 with CUDA 12
prints for these ops.
"""

from recorder import IntList, Obj, Tensor, Tup

MAIN_STREAM = 7
SIDE_STREAM = 13
NCCL_STREAM = 20
HBM_BYTES_PER_US = 2.9e6  # ~2.9 TB/s achieved by streaming kernels on an H100 SXM

K_MUL = (
    "void at::native::vectorized_elementwise_kernel<4, at::native::BinaryFunctor<c10::BFloat16, "
    "c10::BFloat16, c10::BFloat16, at::native::binary_internal::MulFunctor<float> >, "
    "at::detail::Array<char*, 3> >(int, at::native::BinaryFunctor<c10::BFloat16, c10::BFloat16, "
    "c10::BFloat16, at::native::binary_internal::MulFunctor<float> >, at::detail::Array<char*, 3>)"
)
K_MUL_BCAST = (
    "void at::native::elementwise_kernel<128, 4, at::native::gpu_kernel_impl_nocast<"
    "at::native::BinaryFunctor<c10::BFloat16, c10::BFloat16, c10::BFloat16, "
    "at::native::binary_internal::MulFunctor<float> > >(at::TensorIteratorBase&, "
    "at::native::BinaryFunctor<c10::BFloat16, c10::BFloat16, c10::BFloat16, "
    "at::native::binary_internal::MulFunctor<float> > const&)::{lambda(int)#1}>(int, "
    "at::native::gpu_kernel_impl_nocast<at::native::BinaryFunctor<c10::BFloat16, c10::BFloat16, "
    "c10::BFloat16, at::native::binary_internal::MulFunctor<float> > >(at::TensorIteratorBase&, "
    "at::native::BinaryFunctor<c10::BFloat16, c10::BFloat16, c10::BFloat16, "
    "at::native::binary_internal::MulFunctor<float> > const&)::{lambda(int)#1})"
)
K_MEAN = (
    "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<c10::BFloat16, "
    "at::native::MeanOps<c10::BFloat16, float, float, c10::BFloat16>, unsigned int, c10::BFloat16, 4> >"
    "(at::native::ReduceOp<c10::BFloat16, at::native::MeanOps<c10::BFloat16, float, float, "
    "c10::BFloat16>, unsigned int, c10::BFloat16, 4>)"
)
K_ADD_SCALAR = (
    "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctorOnSelf_add<"
    "c10::BFloat16>, at::detail::Array<char*, 2> >(int, at::native::CUDAFunctorOnSelf_add<"
    "c10::BFloat16>, at::detail::Array<char*, 2>)"
)
K_ADD = (
    "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<c10::BFloat16>, "
    "at::detail::Array<char*, 3> >(int, at::native::CUDAFunctor_add<c10::BFloat16>, "
    "at::detail::Array<char*, 3>)"
)
K_RSQRT = (
    "void at::native::vectorized_elementwise_kernel<4, at::native::rsqrt_kernel_cuda("
    "at::TensorIteratorBase&)::{lambda()#1}::operator()() const::{lambda()#3}::operator()() const::"
    "{lambda(c10::BFloat16)#1}, at::detail::Array<char*, 2> >(int, at::native::rsqrt_kernel_cuda("
    "at::TensorIteratorBase&)::{lambda()#1}::operator()() const::{lambda()#3}::operator()() const::"
    "{lambda(c10::BFloat16)#1}, at::detail::Array<char*, 2>)"
)
K_RMS_FUSED = (
    "void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<c10::BFloat16, float, "
    "true>(int, float, c10::BFloat16 const*, c10::BFloat16 const*, c10::BFloat16 const*, "
    "float*, float*, c10::BFloat16*)"
)
K_LAYER_NORM = (
    "void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<c10::BFloat16, float, "
    "false>(int, float, c10::BFloat16 const*, c10::BFloat16 const*, c10::BFloat16 const*, "
    "float*, float*, c10::BFloat16*)"
)
K_LN_BWD_GAMMA = (
    "void at::native::(anonymous namespace)::GammaBetaBackwardCUDAKernelTemplate<c10::BFloat16, "
    "float, 32u, 32u, 256u, false, false>(long, long, c10::BFloat16 const*, c10::BFloat16 const*, "
    "float const*, float const*, c10::BFloat16*, c10::BFloat16*)"
)
K_LN_BWD_INPUT = (
    "void at::native::(anonymous namespace)::layer_norm_grad_input_kernel_vectorized<"
    "c10::BFloat16, float, false>(c10::BFloat16 const*, c10::BFloat16 const*, float const*, "
    "float const*, c10::BFloat16 const*, c10::BFloat16*, int)"
)
K_GEMM_SMALL = (
    "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_"
    "execute_segment_k_off_kernel__5x_cublas"
)
K_GEMM_LARGE = (
    "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x256x64_warpgroupsize2x1x1_"
    "execute_segment_k_off_kernel__5x_cublas"
)
K_GEMM_SPLITK = (
    "sm90_xmma_gemm_bf16bf16_bf16f32_f32_nt_n_tilesize128x128x64_warpgroupsize1x1x1_"
    "execute_segment_k_on_kernel__5x_cublas"
)
K_FLASH_FWD = (
    "void pytorch_flash::flash_fwd_kernel<Flash_fwd_kernel_traits<64, 128, 128, 4, false, false, "
    "cutlass::bfloat16_t, Flash_kernel_traits<64, 128, 128, 4, cutlass::bfloat16_t> >, false, true, "
    "false, false, true, true, false, false>(pytorch_flash::Flash_fwd_params)"
)
K_FLASH_BWD_DOT = (
    "void pytorch_flash::flash_bwd_dot_do_o_kernel<true, Flash_bwd_kernel_traits<64, 128, 128, 8, "
    "2, 4, 2, false, false, cutlass::bfloat16_t, Flash_kernel_traits<64, 128, 128, 8, "
    "cutlass::bfloat16_t> > >(pytorch_flash::Flash_bwd_params)"
)
K_FLASH_BWD = (
    "void pytorch_flash::flash_bwd_dq_dk_dv_loop_seqk_parallel_kernel<Flash_bwd_kernel_traits<64, 128, "
    "128, 8, 2, 4, 2, false, false, cutlass::bfloat16_t, Flash_kernel_traits<64, 128, 128, 8, "
    "cutlass::bfloat16_t> >, false, true, false, false, false, false>(pytorch_flash::Flash_bwd_params)"
)
K_FLASH_BWD_DQ = (
    "void pytorch_flash::flash_bwd_convert_dq_kernel<Flash_bwd_kernel_traits<64, 128, 128, 8, 2, 4, "
    "2, false, false, cutlass::bfloat16_t, Flash_kernel_traits<64, 128, 128, 8, "
    "cutlass::bfloat16_t> > >(pytorch_flash::Flash_bwd_params, int)"
)
K_GELU = (
    "void at::native::vectorized_elementwise_kernel<4, at::native::GeluCUDAKernelImpl("
    "at::TensorIteratorBase&, at::native::GeluType)::{lambda()#2}::operator()() const::{lambda()#4}::"
    "operator()() const::{lambda(c10::BFloat16)#1}, at::detail::Array<char*, 2> >(int, "
    "at::native::GeluCUDAKernelImpl(at::TensorIteratorBase&, at::native::GeluType)::{lambda()#2}::"
    "operator()() const::{lambda()#4}::operator()() const::{lambda(c10::BFloat16)#1}, "
    "at::detail::Array<char*, 2>)"
)
K_GELU_BWD = (
    "void at::native::vectorized_elementwise_kernel<4, at::native::GeluBackwardCUDAKernelImpl("
    "at::TensorIteratorBase&, at::native::GeluType)::{lambda()#2}::operator()() const::{lambda()#4}::"
    "operator()() const::{lambda(c10::BFloat16, c10::BFloat16)#1}, at::detail::Array<char*, 3> >(int, "
    "at::native::GeluBackwardCUDAKernelImpl(at::TensorIteratorBase&, at::native::GeluType)::"
    "{lambda()#2}::operator()() const::{lambda()#4}::operator()() const::{lambda(c10::BFloat16, "
    "c10::BFloat16)#1}, at::detail::Array<char*, 3>)"
)
K_MSE = (
    "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::MeanOps<float, float, "
    "float, float>, unsigned int, float, 4> >(at::native::ReduceOp<float, at::native::MeanOps<float, float, "
    "float, float>, unsigned int, float, 4>)"
)
K_MSE_ELEM = (
    "void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous namespace)::"
    "mse_kernel_cuda(at::TensorIteratorBase&)::{lambda()#1}::operator()() const::{lambda()#3}::"
    "operator()() const::{lambda(c10::BFloat16, c10::BFloat16)#1}, at::detail::Array<char*, 3> >(int, "
    "at::native::(anonymous namespace)::mse_kernel_cuda(at::TensorIteratorBase&)::{lambda()#1}::"
    "operator()() const::{lambda()#3}::operator()() const::{lambda(c10::BFloat16, c10::BFloat16)#1}, "
    "at::detail::Array<char*, 3>)"
)
K_MSE_BWD = (
    "void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous namespace)::"
    "mse_backward_cuda_kernel(at::TensorIterator&, c10::Scalar const&)::{lambda()#1}::operator()() const::"
    "{lambda()#3}::operator()() const::{lambda(c10::BFloat16, c10::BFloat16, c10::BFloat16)#1}, "
    "at::detail::Array<char*, 4> >(int, at::native::(anonymous namespace)::mse_backward_cuda_kernel("
    "at::TensorIterator&, c10::Scalar const&)::{lambda()#1}::operator()() const::{lambda()#3}::"
    "operator()() const::{lambda(c10::BFloat16, c10::BFloat16, c10::BFloat16)#1}, "
    "at::detail::Array<char*, 4>)"
)
K_SUM = (
    "void at::native::reduce_kernel<128, 4, at::native::ReduceOp<c10::BFloat16, at::native::func_wrapper_t<"
    "float, at::native::sum_functor<c10::BFloat16, float, float>::operator()(at::TensorIterator&)::"
    "{lambda(float, float)#1}>, unsigned int, c10::BFloat16, 4> >(at::native::ReduceOp<c10::BFloat16, "
    "at::native::func_wrapper_t<float, at::native::sum_functor<c10::BFloat16, float, float>::operator()("
    "at::TensorIterator&)::{lambda(float, float)#1}>, unsigned int, c10::BFloat16, 4>)"
)
K_FOREACH_ADD = (
    "void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::(anonymous "
    "namespace)::TensorListMetadata<2>, at::native::(anonymous namespace)::BinaryOpListAlphaFunctor<"
    "c10::BFloat16, 2, 2, 0>, std::plus<float>, float>(at::native::(anonymous namespace)::"
    "TensorListMetadata<2>, at::native::(anonymous namespace)::BinaryOpListAlphaFunctor<"
    "c10::BFloat16, 2, 2, 0>, std::plus<float>, float)"
)
K_DIV_SCALAR = (
    "void at::native::vectorized_elementwise_kernel<4, at::native::BUnaryFunctor<c10::BFloat16, "
    "c10::BFloat16, c10::BFloat16, at::native::binary_internal::DivFunctor<float> >, "
    "at::detail::Array<char*, 2> >(int, at::native::BUnaryFunctor<c10::BFloat16, c10::BFloat16, "
    "c10::BFloat16, at::native::binary_internal::DivFunctor<float> >, at::detail::Array<char*, 2>)"
)
K_NCCL_ALLREDUCE = "ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)"

S_MUL = "aten::mul.Tensor(Tensor self, Tensor other) -> Tensor"
S_MEAN = "aten::mean.dim(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor"
S_ADD = "aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor"
S_ADD_ = "aten::add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)"
S_RSQRT = "aten::rsqrt(Tensor self) -> Tensor"
S_RMS = (
    "aten::rms_norm(Tensor input, SymInt[] normalized_shape, Tensor? weight=None, float? eps=None) -> Tensor"
)
S_FUSED_RMS = (
    "aten::_fused_rms_norm(Tensor input, int[] normalized_shape, Tensor? weight, float? eps) -> "
    "(Tensor, Tensor)"
)
S_EMPTY_STRIDED = (
    "aten::empty_strided(SymInt[] size, SymInt[] stride, *, ScalarType? dtype=None, "
    "Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor"
)
S_MATMUL = "aten::matmul(Tensor self, Tensor other) -> Tensor"
S_MM = "aten::mm(Tensor self, Tensor mat2) -> Tensor"
S_LINEAR = "aten::linear(Tensor input, Tensor weight, Tensor? bias=None) -> Tensor"
S_T = "aten::t(Tensor(a) self) -> Tensor(a)"
S_TRANSPOSE = "aten::transpose.int(Tensor(a) self, int dim0, int dim1) -> Tensor(a)"
S_AS_STRIDED = (
    "aten::as_strided(Tensor(a) self, SymInt[] size, SymInt[] stride, SymInt? storage_offset=None) "
    "-> Tensor(a)"
)
S_ADDMM = "aten::addmm(Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1) -> Tensor"
S_VIEW = "aten::view(Tensor(a) self, SymInt[] size) -> Tensor(a)"
S_LAYER_NORM = (
    "aten::layer_norm(Tensor input, SymInt[] normalized_shape, Tensor? weight=None, Tensor? bias=None, "
    "float eps=1e-05, bool cudnn_enable=True) -> Tensor"
)
S_NATIVE_LN = (
    "aten::native_layer_norm(Tensor input, SymInt[] normalized_shape, Tensor? weight, Tensor? bias, "
    "float eps) -> (Tensor, Tensor, Tensor)"
)
S_LN_BWD = (
    "aten::native_layer_norm_backward(Tensor grad_out, Tensor input, SymInt[] normalized_shape, Tensor mean, "
    "Tensor rstd, Tensor? weight, Tensor? bias, bool[3] output_mask) -> (Tensor, Tensor, Tensor)"
)
S_SDPA = (
    "aten::scaled_dot_product_attention(Tensor query, Tensor key, Tensor value, Tensor? attn_mask=None, "
    "float dropout_p=0., bool is_causal=False, *, float? scale=None, bool enable_gqa=False) -> Tensor"
)
S_SDPA_FLASH = (
    "aten::_scaled_dot_product_flash_attention(Tensor query, Tensor key, Tensor value, float "
    "dropout_p=0., bool is_causal=False, bool return_debug_mask=False, *, float? scale=None) -> "
    "(Tensor output, Tensor logsumexp, Tensor cum_seq_q, Tensor cum_seq_k, SymInt max_q, SymInt max_k, "
    "Tensor rng_state, Tensor unused, Tensor debug_attn_mask)"
)
S_SDPA_FLASH_BWD = (
    "aten::_scaled_dot_product_flash_attention_backward(Tensor grad_out, Tensor query, Tensor key, "
    "Tensor value, Tensor out, Tensor logsumexp, Tensor cum_seq_q, Tensor cum_seq_k, SymInt max_q, "
    "SymInt max_k, float dropout_p, bool is_causal, Tensor philox_seed, Tensor philox_offset, *, "
    "float? scale=None) -> (Tensor grad_query, Tensor grad_key, Tensor grad_value)"
)
S_GELU = "aten::gelu(Tensor self, *, str approximate='none') -> Tensor"
S_GELU_BWD = "aten::gelu_backward(Tensor grad_output, Tensor self, *, str approximate='none') -> Tensor"
S_MSE = "aten::mse_loss(Tensor self, Tensor target, int reduction=Mean) -> Tensor"
S_MSE_BWD = "aten::mse_loss_backward(Tensor grad_output, Tensor self, Tensor target, int reduction) -> Tensor"
S_SUM = (
    "aten::sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor"
)
S_FOREACH_ADD = "aten::_foreach_add_.List(Tensor(a!)[] self, Tensor[] other, *, Scalar alpha=1) -> ()"
S_ITEM = "aten::item(Tensor self) -> Scalar"
S_LOCAL_SCALAR = "aten::_local_scalar_dense(Tensor self) -> Scalar"
S_COPY_ = "aten::copy_(Tensor(a!) self, Tensor src, bool non_blocking=False) -> Tensor(a!)"
S_DIV_ = "aten::div_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)"
S_ALLREDUCE = (
    "c10d::allreduce_(Tensor[] tensors, __torch__.torch.classes.c10d.ProcessGroup process_group, "
    "__torch__.torch.classes.c10d.ReduceOp reduce_op, Tensor? sparse_indices, bool asyncOp=True, "
    "int timeout=-1) -> (Tensor[], __torch__.torch.classes.c10d.Work)"
)


def stream_us(nbytes, floor_us=2.2):
    """Device time of a memory-bound kernel moving nbytes through HBM."""
    return max(floor_us, nbytes / HBM_BYTES_PER_US + 1.6)


def gemm_us(m, n, k, tflops=560.0, floor_us=4.0):
    return max(floor_us, 2.0 * m * n * k / (tflops * 1e6) + 2.0)


def grid_1d(numel, per_block=512):
    return ((numel + per_block - 1) // per_block, 1, 1)


# ---- RMSNorm three ways ----------------------------------------------------------------------

ROWS, COLS, EPS = 4096, 4096, 1e-06


def rmsnorm_naive(rec, x):
    """x * rsqrt(mean(x * x, -1, keepdim=True) + eps): five kernels."""
    sq = Tensor([ROWS, COLS], "bf16", x.device)
    with rec.op("aten::mul", [x, x], [sq], S_MUL):
        rec.kernel(K_MUL, stream_us(3 * x.nbytes()), MAIN_STREAM, grid_1d(x.numel(), 1024), (128, 1, 1), 24)
    ms = Tensor([ROWS, 1], "bf16", x.device)
    with rec.op("aten::mean", [sq, IntList([-1]), True, None], [ms], S_MEAN):
        rec.kernel(K_MEAN, stream_us(sq.nbytes()), MAIN_STREAM, (ROWS, 1, 1), (32, 16, 1), 32, 16)
    ms_eps = Tensor([ROWS, 1], "bf16", x.device)
    with rec.op("aten::add", [ms, EPS, 1], [ms_eps], S_ADD):
        rec.kernel(K_ADD_SCALAR, stream_us(2 * ms.nbytes()), MAIN_STREAM, (8, 1, 1), (128, 1, 1), 20)
    r = Tensor([ROWS, 1], "bf16", x.device)
    with rec.op("aten::rsqrt", [ms_eps], [r], S_RSQRT):
        rec.kernel(K_RSQRT, stream_us(2 * ms.nbytes()), MAIN_STREAM, (8, 1, 1), (128, 1, 1), 18)
    y = Tensor([ROWS, COLS], "bf16", x.device)
    with rec.op("aten::mul", [x, r], [y], S_MUL):
        rec.kernel(
            K_MUL_BCAST,
            stream_us(2 * x.nbytes()) * 1.08,
            MAIN_STREAM,
            grid_1d(x.numel(), 512),
            (128, 1, 1),
            30,
        )
    return y


def rmsnorm_fused(rec, x):
    """torch.rms_norm(x, [COLS], None, eps): one fused kernel (aten::_fused_rms_norm)."""
    y = Tensor([ROWS, COLS], "bf16", x.device)
    rstd = Tensor([ROWS, 1], "f32", x.device)
    with rec.op("aten::rms_norm", [x, IntList([COLS]), None, EPS], [y], S_RMS):
        with rec.op("aten::_fused_rms_norm", [x, IntList([COLS]), None, EPS], [y, rstd], S_FUSED_RMS):
            rec.kernel(
                K_RMS_FUSED, stream_us(2 * x.nbytes()) * 1.04, MAIN_STREAM, (ROWS, 1, 1), (32, 4, 1), 40
            )
    return y


TRITON_RMS = "triton_red_fused_add_mean_mul_rsqrt_0"
TRITON_HASH = "c4rqsz7ztj5m2yx3xpmk2e5vq6cz3cblz2ogvyi6ny2yvx4lqz5b"
FX_GRAPH_KEY = "fycfxbu3gk5ywemzhpf4u4dpkrbcoceobjzy6plv2tgosnxxgpzj"


def rmsnorm_compiled(rec, x):
    """torch.compile(naive): Dynamo's cache lookup, the compiled region, one Triton kernel."""
    with rec.op("TorchDynamo Cache Lookup", [], [], ""):
        rec.host_work(8, 14)
    y = Tensor([ROWS, COLS], "bf16", x.device)
    with rec.op("Torch-Compiled Region: 0/0", [], [], ""):
        rec.host_work(6, 12)
        with rec.op("## Call CompiledFxGraph %s ##" % FX_GRAPH_KEY, [], [], "", scope=7):
            with rec.op(
                "aten::empty_strided",
                [IntList([ROWS, COLS]), IntList([COLS, 1]), 15, 0, "cuda:%d" % rec.device, False],
                [y],
                S_EMPTY_STRIDED,
            ):
                rec.host_work(1, 3)
            kernel_file = "/tmp/torchinductor_user/%s/%s.py" % (TRITON_HASH[:2], TRITON_HASH)
            attrs = [
                {"name": "kernel_backend", "type": "string", "value": "triton"},
                {"name": "kernel_file", "type": "string", "value": kernel_file},
            ]
            kargs = {
                "kernel_backend": "triton",
                "kernel_file": kernel_file,
                "kernel_hash": TRITON_HASH,
                "grid": "grid(%d,)" % ROWS,
                "stream": 0,
            }
            with rec.op(TRITON_RMS, [x, y, ROWS, COLS], [], "", attrs=attrs, kargs=kargs):
                rec.host_work(10, 16)  # the Triton launcher's Python side
                rec.kernel(
                    TRITON_RMS,
                    stream_us(2 * x.nbytes()) * 1.06,
                    MAIN_STREAM,
                    (ROWS, 1, 1),
                    (512, 1, 1),
                    38,
                    0,
                    api="cuLaunchKernel",
                    api_cat="cuda_driver",
                )
    return y


def rmsnorm_case(variant):
    fn = {"naive": rmsnorm_naive, "fused": rmsnorm_fused, "compiled": rmsnorm_compiled}[variant]

    def run(rec, step, shared):
        x = shared.setdefault("x", Tensor([ROWS, COLS], "bf16", "cuda:%d" % rec.device))
        fn(rec, x)
        rec.host_work(2, 5)
        rec.device_synchronize()  # benchmark timing: torch.cuda.synchronize() after each call

    return run


# ---- matmul ----------------------------------------------------------------------------------


def matmul_case(rec, step, shared):
    dev = "cuda:%d" % rec.device
    a = shared.setdefault("a", Tensor([1024, 1024], "bf16", dev))
    b = shared.setdefault("b", Tensor([1024, 1024], "bf16", dev))
    c = Tensor([1024, 1024], "bf16", dev)
    with rec.op("aten::matmul", [a, b], [c], S_MATMUL):
        with rec.op("aten::mm", [a, b], [c], S_MM):
            rec.host_work(2, 4)  # cuBLASLt heuristics cache lookup
            rec.kernel(
                K_GEMM_SMALL,
                gemm_us(1024, 1024, 1024, tflops=330.0),
                MAIN_STREAM,
                (8, 8, 1),
                (384, 1, 1),
                168,
                213032,
                api="cuLaunchKernelEx",
                api_cat="cuda_driver",
            )
    rec.host_work(2, 5)
    rec.device_synchronize()


# ---- a transformer block training step on two streams ----------------------------------------

TOKENS, D_MODEL, D_FF, HEADS, SEQ = 2048, 1024, 4096, 16, 512


class _Params:
    def __init__(self, dev):
        def p(*shape):
            return Tensor(list(shape), "bf16", dev)

        self.ln1_w, self.ln1_b = p(D_MODEL), p(D_MODEL)
        self.qkv_w, self.qkv_b = p(3 * D_MODEL, D_MODEL), p(3 * D_MODEL)
        self.out_w, self.out_b = p(D_MODEL, D_MODEL), p(D_MODEL)
        self.ln2_w, self.ln2_b = p(D_MODEL), p(D_MODEL)
        self.up_w, self.up_b = p(D_FF, D_MODEL), p(D_FF)
        self.down_w, self.down_b = p(D_MODEL, D_FF), p(D_MODEL)

    def all(self):
        return [
            self.ln1_w,
            self.ln1_b,
            self.qkv_w,
            self.qkv_b,
            self.out_w,
            self.out_b,
            self.ln2_w,
            self.ln2_b,
            self.up_w,
            self.up_b,
            self.down_w,
            self.down_b,
        ]


class _Autograd:
    """Sequence numbers of forward ops, replayed by their backward functions."""

    def __init__(self):
        self.seq = 0
        self.tape = []  # (seq, backward name, forward op start, forward os tid)

    def forward_op(self, rec, backward_name):
        seq = self.seq
        self.seq += 1
        self.tape.append((seq, backward_name, rec.now(), rec.cur.os_tid))
        return seq


def _linear(rec, ag, x, w, b, out_features, bwd_name="AddmmBackward0"):
    seq = ag.forward_op(rec, bwd_name)
    y = Tensor([TOKENS, out_features], "bf16", x.device)
    wt = w.view([w.shape[1], w.shape[0]], strides=[1, w.shape[1]])
    with rec.op("aten::linear", [x, w, b], [y], S_LINEAR, seq=seq):
        with rec.op("aten::t", [w], [wt], S_T, seq=seq):
            with rec.op("aten::transpose", [w, 0, 1], [wt], S_TRANSPOSE):
                with rec.op(
                    "aten::as_strided", [w, IntList(wt.shape), IntList(wt.strides), None], [wt], S_AS_STRIDED
                ):
                    pass
        with rec.op("aten::addmm", [b, x, wt, 1, 1], [y], S_ADDMM, seq=seq):
            big = out_features * x.shape[1] >= 4 * 1024 * 1024
            rec.kernel(
                K_GEMM_LARGE if big else K_GEMM_SMALL,
                gemm_us(TOKENS, out_features, x.shape[1]),
                MAIN_STREAM,
                (out_features // (256 if big else 128), TOKENS // 128, 1),
                (384, 1, 1),
                168,
                213032 if not big else 229400,
            )
    return y


def _layer_norm(rec, ag, x, w, b):
    seq = ag.forward_op(rec, "NativeLayerNormBackward0")
    y = Tensor(x.shape, "bf16", x.device)
    mean = Tensor([TOKENS, 1], "f32", x.device)
    rstd = Tensor([TOKENS, 1], "f32", x.device)
    with rec.op("aten::layer_norm", [x, IntList([D_MODEL]), w, b, 1e-05, True], [y], S_LAYER_NORM, seq=seq):
        with rec.op(
            "aten::native_layer_norm",
            [x, IntList([D_MODEL]), w, b, 1e-05],
            [y, mean, rstd],
            S_NATIVE_LN,
            seq=seq,
        ):
            rec.kernel(K_LAYER_NORM, stream_us(2 * x.nbytes()), MAIN_STREAM, (TOKENS, 1, 1), (32, 4, 1), 40)
    return y


def _add(rec, ag, a, b):
    seq = ag.forward_op(rec, "AddBackward0")
    y = Tensor(a.shape, "bf16", a.device)
    with rec.op("aten::add", [a, b, 1], [y], S_ADD, seq=seq):
        rec.kernel(K_ADD, stream_us(3 * a.nbytes()), MAIN_STREAM, grid_1d(a.numel(), 1024), (128, 1, 1), 22)
    return y


def _backward(rec, ag, params):
    """The autograd engine's device thread replays the tape in reverse (ET thread 2)."""
    dev = params.ln1_w.device
    act = Tensor([TOKENS, D_MODEL], "bf16", dev)
    act_ff = Tensor([TOKENS, D_FF], "bf16", dev)
    grads = {}
    for seq, name, fwd_ts, fwd_tid in reversed(ag.tape):
        with rec.op("autograd::engine::evaluate_function: %s" % name, [], [], "", seq=seq, fwd_tid=1):
            start = rec.now()
            with rec.op(name, [act], [act], "", scope=1, seq=seq, fwd_tid=1):
                rec.fwdbwd(fwd_ts, fwd_tid, start + 1, rec.cur.os_tid)
                if name == "MseLossBackward0":
                    g = Tensor([TOKENS, D_MODEL], "bf16", dev)
                    with rec.op(
                        "aten::mse_loss_backward", [Tensor([], "bf16", dev), act, act, 1], [g], S_MSE_BWD
                    ):
                        rec.kernel(
                            K_MSE_BWD, stream_us(4 * act.nbytes()), MAIN_STREAM, grid_1d(act.numel(), 1024)
                        )
                elif name == "AddmmBackward0":
                    # Which linear: the tape's order is qkv, out, up, down; the shapes follow.
                    out_f, in_f = {
                        0: (3 * D_MODEL, D_MODEL),
                        1: (D_MODEL, D_MODEL),
                        2: (D_FF, D_MODEL),
                        3: (D_MODEL, D_FF),
                    }[grads.setdefault("addmm", 3)]
                    grads["addmm"] -= 1
                    gy = Tensor([TOKENS, out_f], "bf16", dev)
                    gx = Tensor([TOKENS, in_f], "bf16", dev)
                    gw = Tensor([out_f, in_f], "bf16", dev)
                    wmat = Tensor([out_f, in_f], "bf16", dev)
                    with rec.op("aten::mm", [gy, wmat], [gx], S_MM):
                        rec.kernel(
                            K_GEMM_LARGE,
                            gemm_us(TOKENS, in_f, out_f),
                            MAIN_STREAM,
                            (max(1, in_f // 256), TOKENS // 128, 1),
                            (384, 1, 1),
                            168,
                            229400,
                        )
                    with rec.op("aten::mm", [gy, gx], [gw], S_MM):
                        # Split-K over the 2048 tokens: cuBLAS zeroes the output first.
                        rec.memset(gw.nbytes(), MAIN_STREAM)
                        rec.kernel(
                            K_GEMM_SPLITK,
                            gemm_us(out_f, in_f, TOKENS) * 1.1,
                            MAIN_STREAM,
                            (max(1, in_f // 128), max(1, out_f // 128), 2),
                            (384, 1, 1),
                            168,
                            213032,
                        )
                    gb = Tensor([out_f], "bf16", dev)
                    with rec.op("aten::sum", [gy, IntList([0]), True, None], [gb], S_SUM):
                        rec.kernel(
                            K_SUM, stream_us(gy.nbytes()), MAIN_STREAM, (out_f // 32, 4, 1), (32, 16, 1)
                        )
                elif name == "GeluBackward0":
                    g = Tensor([TOKENS, D_FF], "bf16", dev)
                    with rec.op("aten::gelu_backward", [act_ff, act_ff, "none"], [g], S_GELU_BWD):
                        rec.kernel(
                            K_GELU_BWD,
                            stream_us(3 * act_ff.nbytes()),
                            MAIN_STREAM,
                            grid_1d(act_ff.numel(), 1024),
                        )
                elif name == "NativeLayerNormBackward0":
                    g = Tensor([TOKENS, D_MODEL], "bf16", dev)
                    m = Tensor([TOKENS, 1], "f32", dev)
                    with rec.op(
                        "aten::native_layer_norm_backward",
                        [act, act, IntList([D_MODEL]), m, m, params.ln1_w, params.ln1_b],
                        [g],
                        S_LN_BWD,
                    ):
                        rec.kernel(
                            K_LN_BWD_INPUT,
                            stream_us(3 * act.nbytes()),
                            MAIN_STREAM,
                            (TOKENS, 1, 1),
                            (32, 4, 1),
                            48,
                        )
                        rec.kernel(
                            K_LN_BWD_GAMMA,
                            stream_us(2 * act.nbytes()),
                            MAIN_STREAM,
                            (32, 1, 1),
                            (32, 32, 1),
                            64,
                        )
                elif name == "ScaledDotProductFlashAttentionBackward0":
                    q = Tensor([TOKENS // SEQ, HEADS, SEQ, D_MODEL // HEADS], "bf16", dev)
                    with rec.op(
                        "aten::_scaled_dot_product_flash_attention_backward",
                        [q, q, q, q, q, Tensor([TOKENS // SEQ, HEADS, SEQ], "f32", dev)],
                        [q, q, q],
                        S_SDPA_FLASH_BWD,
                    ):
                        rec.kernel(
                            K_FLASH_BWD_DOT,
                            stream_us(2 * q.nbytes()),
                            MAIN_STREAM,
                            (SEQ // 128, TOKENS // SEQ, HEADS),
                            (128, 1, 1),
                            32,
                        )
                        rec.kernel(
                            K_FLASH_BWD,
                            58.0,
                            MAIN_STREAM,
                            (SEQ // 128, TOKENS // SEQ, HEADS),
                            (256, 1, 1),
                            255,
                            98304,
                        )
                        rec.kernel(
                            K_FLASH_BWD_DQ,
                            stream_us(3 * q.nbytes()),
                            MAIN_STREAM,
                            (SEQ // 128, TOKENS // SEQ, HEADS),
                            (256, 1, 1),
                            40,
                        )
                # AddBackward0 passes the gradient through: no kernel.
    # The gradients reach the parameters: AccumulateGrad once per parameter.
    for p in params.all():
        with rec.op("autograd::engine::evaluate_function: torch::autograd::AccumulateGrad", [], [], ""):
            with rec.op("torch::autograd::AccumulateGrad", [p], [], "", scope=1):
                with rec.op("aten::detach", [p], [p], "aten::detach(Tensor(a) self) -> Tensor(a)"):
                    pass


def transformer_case(rec, step, shared):
    dev = "cuda:%d" % rec.device
    params = shared.setdefault("params", _Params(dev))
    x = shared.get("next_x") or Tensor([TOKENS, D_MODEL], "bf16", dev)
    target = Tensor([TOKENS, D_MODEL], "bf16", dev)
    ag = _Autograd()
    ag.seq = shared.get("seq", 0)

    with rec.op("Optimizer.zero_grad#SGD.zero_grad", [], [], "", scope=7):
        rec.host_work(8, 15)  # set_to_none: no kernels

    # The side stream prefetches the next batch while the main stream computes.
    ready = rec.record_event(MAIN_STREAM)  # side.wait_stream(torch.cuda.current_stream())
    rec.stream_wait_event(SIDE_STREAM, ready)
    pinned = Tensor([TOKENS, D_MODEL], "bf16", "cpu")
    next_x = Tensor([TOKENS, D_MODEL], "bf16", dev)
    with rec.op("aten::copy_", [next_x, pinned, True], [next_x], S_COPY_):
        rec.memcpy("HtoD", pinned.nbytes(), SIDE_STREAM)
    scaled = Tensor([TOKENS, D_MODEL], "bf16", dev)
    with rec.op("aten::mul", [next_x, next_x], [scaled], S_MUL):  # input normalisation on the side stream
        rec.kernel(K_MUL, stream_us(3 * next_x.nbytes()), SIDE_STREAM, grid_1d(next_x.numel(), 1024))
    side_done = rec.record_event(SIDE_STREAM)
    shared["next_x"] = scaled

    with rec.op("## forward ##", [], [], "", scope=7):
        h = _layer_norm(rec, ag, x, params.ln1_w, params.ln1_b)
        qkv = _linear(rec, ag, h, params.qkv_w, params.qkv_b, 3 * D_MODEL)
        q = Tensor([TOKENS // SEQ, HEADS, SEQ, D_MODEL // HEADS], "bf16", dev)
        with rec.op(
            "aten::view", [qkv, IntList([TOKENS // SEQ, SEQ, 3, HEADS, D_MODEL // HEADS])], [qkv], S_VIEW
        ):
            pass
        seq = ag.forward_op(rec, "ScaledDotProductFlashAttentionBackward0")
        attn = Tensor(q.shape, "bf16", dev)
        lse = Tensor([TOKENS // SEQ, HEADS, SEQ], "f32", dev)
        with rec.op(
            "aten::scaled_dot_product_attention",
            [q, q, q, None, 0.0, True, None, False],
            [attn],
            S_SDPA,
            seq=seq,
        ):
            with rec.op(
                "aten::_scaled_dot_product_flash_attention",
                [q, q, q, 0.0, True, False, None],
                [attn, lse],
                S_SDPA_FLASH,
                seq=seq,
            ):
                rec.kernel(
                    K_FLASH_FWD,
                    31.0,
                    MAIN_STREAM,
                    (SEQ // 128, TOKENS // SEQ, HEADS),
                    (128, 1, 1),
                    255,
                    49152,
                )
        a2 = Tensor([TOKENS, D_MODEL], "bf16", dev)
        with rec.op("aten::view", [attn, IntList([TOKENS, D_MODEL])], [a2], S_VIEW):
            pass
        o = _linear(rec, ag, a2, params.out_w, params.out_b, D_MODEL)
        r1 = _add(rec, ag, x, o)
        h2 = _layer_norm(rec, ag, r1, params.ln2_w, params.ln2_b)
        u = _linear(rec, ag, h2, params.up_w, params.up_b, D_FF)
        seq = ag.forward_op(rec, "GeluBackward0")
        g = Tensor([TOKENS, D_FF], "bf16", dev)
        with rec.op("aten::gelu", [u, "none"], [g], S_GELU, seq=seq):
            rec.kernel(K_GELU, stream_us(2 * u.nbytes()), MAIN_STREAM, grid_1d(u.numel(), 1024))
        d = _linear(rec, ag, g, params.down_w, params.down_b, D_MODEL)
        out = _add(rec, ag, r1, d)
        seq = ag.forward_op(rec, "MseLossBackward0")
        loss = Tensor([], "bf16", dev)
        with rec.op("aten::mse_loss", [out, target, 1], [loss], S_MSE, seq=seq):
            rec.kernel(K_MSE_ELEM, stream_us(3 * out.nbytes()), MAIN_STREAM, grid_1d(out.numel(), 1024))
            rec.kernel(K_MSE, stream_us(out.nbytes()), MAIN_STREAM, (1, 1, 1), (512, 1, 1))

    with rec.op("## backward ##", [], [], "", scope=7):
        rec.host_work(6, 10)
        rec.thread(1)
        _backward(rec, ag, params)
        rec.thread(0)  # the main thread wakes when the engine is done

    with rec.op("Optimizer.step#SGD.step", [], [], "", scope=7):
        ps = params.all()
        grads = [Tensor(p.shape, "bf16", dev) for p in ps]
        with rec.op("aten::_foreach_add_", [ps, grads, -0.01], [], S_FOREACH_ADD):
            total = sum(p.nbytes() for p in ps)
            rec.kernel(K_FOREACH_ADD, stream_us(3 * total), MAIN_STREAM, (132 * 4, 1, 1), (512, 1, 1), 40)

    # The next step's batch must be in place: the main stream waits for the side stream.
    rec.stream_wait_event(MAIN_STREAM, side_done)
    # loss.item(): a device-to-host copy and a stream sync.
    with rec.op("aten::item", [loss], [], S_ITEM):
        with rec.op("aten::_local_scalar_dense", [loss], [], S_LOCAL_SCALAR):
            rec.memcpy("DtoH", 2, MAIN_STREAM)
            rec.stream_synchronize(MAIN_STREAM)
    # An explicit event: record on the main stream, wait for it on the host.
    done = rec.record_event(MAIN_STREAM)
    rec.event_synchronize(done)
    rec.device_synchronize()
    shared["seq"] = ag.seq


# ---- two ranks, one all-reduce ---------------------------------------------------------------

GRAD_NUMEL = 8 * 1024 * 1024  # 16 MiB of bf16 gradients
NVLINK_BYTES_PER_US = 1.8e5  # ~180 GB/s bus bandwidth reached by a 2-rank ring all-reduce


def allreduce_case(world):
    def run(rec, step, shared):
        dev = "cuda:%d" % rec.device
        a = shared.setdefault("a", Tensor([2048, 2048], "bf16", dev))
        b = shared.setdefault("b", Tensor([2048, 2048], "bf16", dev))
        grad = shared.setdefault("grad", Tensor([GRAD_NUMEL], "bf16", dev))
        c = Tensor([2048, 2048], "bf16", dev)
        with rec.op("aten::mm", [a, b], [c], S_MM):
            rec.kernel(
                K_GEMM_LARGE, gemm_us(2048, 2048, 2048), MAIN_STREAM, (8, 16, 1), (384, 1, 1), 168, 229400
            )
        index = shared.setdefault("collectives", 0)
        shared["collectives"] = index + 1
        with rec.op("c10d::allreduce_", [[grad], Obj(), Obj(), None, True, -1], [[grad], Obj()], S_ALLREDUCE):
            comm = [
                {"name": "collective_name", "type": "string", "value": "allreduce"},
                {"name": "dtype", "type": "string", "value": "BFloat16"},
                {"name": "in_msg_nelems", "type": "uint64", "value": GRAD_NUMEL},
                {"name": "out_msg_nelems", "type": "uint64", "value": GRAD_NUMEL},
                {"name": "in_split_size", "type": "string", "value": "[]"},
                {"name": "out_split_size", "type": "string", "value": "[]"},
                {"name": "global_rank_start", "type": "uint64", "value": 0},
                {"name": "global_rank_stride", "type": "uint64", "value": 1},
                {"name": "pg_name", "type": "string", "value": "0"},
                {"name": "pg_desc", "type": "string", "value": "default_pg"},
                {"name": "pg_size", "type": "uint64", "value": world},
            ]
            kargs = {
                "Collective name": "allreduce",
                "In msg nelems": GRAD_NUMEL,
                "Out msg nelems": GRAD_NUMEL,
                "Group size": world,
                "dtype": "BFloat16",
                "In split size": "[]",
                "Out split size": "[]",
                "Global rank start": 0,
                "Global rank stride": 1,
                "Process Group Name": "0",
                "Process Group Description": "default_pg",
                "Process Group Ranks": "[%s]" % ", ".join(str(r) for r in range(world)),
                "Rank": rec.rank,
            }
            with rec.op(
                "record_param_comms",
                [
                    [grad],
                    index,
                    Tup(["0", "default_pg"]),
                    rec.rank,
                    "allreduce",
                    IntList([]),
                    IntList([]),
                    0,
                    1,
                    world,
                ],
                [[grad]],
                "",
                attrs=comm,
                kargs=kargs,
            ):
                # ProcessGroupNCCL: the NCCL stream waits for the compute stream, then runs the kernel.
                ready = rec.record_event(MAIN_STREAM)
                rec.stream_wait_event(NCCL_STREAM, ready)
                with rec.op("nccl:all_reduce", [grad], [], "", scope=7):
                    rec.collective_kernel(
                        index,
                        K_NCCL_ALLREDUCE,
                        grad.nbytes() / NVLINK_BYTES_PER_US + 6.0,
                        NCCL_STREAM,
                        (2, 1, 1),
                        (640, 1, 1),
                        96,
                    )
                rec.record_event(NCCL_STREAM)  # the Work's end event
            # work.wait(): the compute stream waits for the NCCL stream.
        with rec.op(
            "record_param_comms",
            [index, Tup(["", ""]), 1, "wait", IntList([]), IntList([]), -1, -1, 1],
            [],
            "",
            attrs=[
                {"name": "collective_name", "type": "string", "value": "wait"},
                {"name": "dtype", "type": "string", "value": "Byte"},
                {"name": "in_msg_nelems", "type": "uint64", "value": 0},
                {"name": "out_msg_nelems", "type": "uint64", "value": 0},
                {"name": "in_split_size", "type": "string", "value": "[]"},
                {"name": "out_split_size", "type": "string", "value": "[]"},
                {"name": "pg_size", "type": "uint64", "value": 1},
            ],
            kargs={"Collective name": "wait", "dtype": "Byte", "Group size": 1},
        ):
            end = rec.record_event(NCCL_STREAM)
            rec.stream_wait_event(MAIN_STREAM, end)
        with rec.op("aten::div_", [grad, world], [grad], S_DIV_):
            rec.kernel(K_DIV_SCALAR, stream_us(2 * grad.nbytes()), MAIN_STREAM, grid_1d(grad.numel(), 1024))
        rec.host_work(2, 5)
        rec.device_synchronize()

    return run
