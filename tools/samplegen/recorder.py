# SPDX-License-Identifier: MIT
"""A model of what torch.profiler (Kineto) and the ExecutionTraceObserver record together.

Workloads (cases.py) call ops, kernel launches, copies and syncs on a Recorder; the Recorder
advances host clocks and device streams with plausible costs and keeps, for one rank, the Kineto
events and the execution-trace (ET) nodes that PyTorch would have written, with the ids that tie
them together: every CPU op has an `External id`, a `Record function id` equal to its ET node's
rf_id, runtime calls and device ops share a CUPTI `correlation`, and ac2g flows join them.

Times are integer nanoseconds throughout; the writers turn them into Kineto's microsecond text.
"""

import zlib

DTYPES = {
    # name: (ET type, Kineto "Input type", itemsize)
    "bf16": ("Tensor(c10::BFloat16)", "c10::BFloat16", 2),
    "f32": ("Tensor(float)", "float", 4),
    "i64": ("Tensor(long int)", "long int", 8),
}


class Tensor:
    """A tensor as the ET sees it. Ids are given the first time an ET op sees it."""

    def __init__(self, shape, dtype="bf16", device="cuda:0", storage=None, offset=0, strides=None):
        self.shape = list(shape)
        self.dtype = dtype
        self.device = device
        self.storage = storage  # the Tensor whose storage this one views, or None (own storage)
        self.offset = offset
        self.strides = strides if strides is not None else contiguous_strides(self.shape)
        self.tensor_id = None
        self.storage_id = None

    def numel(self):
        n = 1
        for d in self.shape:
            n *= d
        return n

    def itemsize(self):
        return DTYPES[self.dtype][2]

    def nbytes(self):
        return self.numel() * self.itemsize()

    def view(self, shape, strides=None):
        return Tensor(
            shape, self.dtype, self.device, storage=self.storage or self, offset=self.offset, strides=strides
        )


def contiguous_strides(shape):
    strides, acc = [], 1
    for d in reversed(shape):
        strides.append(acc)
        acc *= d
    return list(reversed(strides))


class IntList(list):
    """An int[] argument (GenericList[Int] in the ET, ScalarList in Kineto)."""


class Obj:
    """An opaque argument (a ProcessGroup, a Work): "<Object>" in the ET."""


class Tup(list):
    """A tuple argument, e.g. (pg_name, pg_desc): Tuple[String,String] in the ET."""


class Event:
    """A torch.cuda.Event recorded on a stream."""

    def __init__(self, stream, done_ns, record_corr, event_id):
        self.stream = stream
        self.done_ns = done_ns
        self.record_corr = record_corr
        self.event_id = event_id


class _Thread:
    def __init__(self, os_tid, et_tid, clock_ns):
        self.os_tid = os_tid
        self.et_tid = et_tid
        self.clock = clock_ns
        self.stack = []  # open ops
        self.et_root = None  # ET id of this thread's root node, once the ET has seen the thread


class _Op:
    def __init__(self, rec, name, inputs, outputs, schema, scope, seq, fwd_tid, kargs, attrs):
        self.rec = rec
        self.name = name
        self.inputs = list(inputs)
        self.outputs = list(outputs)
        self.schema = schema
        self.scope = scope
        self.seq = seq
        self.fwd_tid = fwd_tid
        self.kargs = kargs or {}
        self.attrs = attrs or []

    def __enter__(self):
        self.rec._enter(self)
        return self

    def __exit__(self, exc_type, exc, tb):
        if exc_type is None:
            self.rec._exit(self)
        return False


class Recorder:
    """One rank's profiler session: Kineto events plus ET nodes."""

    def __init__(self, rng, rank=0, pid=None, device=0, start_ns=0, et_active=True):
        self.rng = rng
        self.rank = rank
        self.device = device
        self.pid = pid if pid is not None else 20481 + 977 * rank
        self.start_ns = start_ns
        self.host = []  # framework events (cpu_op, user_annotation): dicts
        self.runtime = []  # runtime/driver calls, device ops, cuda_sync events and flows, in order
        self.et_nodes = []  # in write order (an op is written when it exits)
        self.threads = {}
        self.cur = None
        self.next_id = 1  # ET node ids and tensor/storage ids share one counter
        self.next_rf = 1  # RecordFunction handles
        self.next_ext = 1  # Kineto External id
        self.next_corr = 1  # CUPTI correlation id
        self.next_cuda_event = 1
        self.ev_idx = 0
        self.streams = {}  # stream id -> ns when its last queued work ends
        self.flows = {"ac2g": 0, "fwdbwd": 0}
        self.collective_ready = {}  # collective index -> ns its kernel could start on this rank
        self.peer_ready = {}  # collective index -> latest start over all ranks (previous pass)
        self.et_only_ops = 0  # ET operators with no Kineto event (## process_group:init ##)
        self.launched = set()  # streams that have had device work queued
        # Waits that have device work to wait on: a stream wait whose event follows work on its
        # stream; a blocking call per stream (Context Sync: every stream) it waits on.
        self.stream_waits_on_work = 0
        self.host_waits_on_work = 0
        self.blocking_calls_on_work = 0  # blocking calls that waited on at least one device op
        self.waits_without_work = 0  # event waits on an event recorded before any work
        self.et_active = et_active
        self.process_root = self._new_id()  # id 1: the process root, written last
        self.thread(0)

    # ---- threads and clocks -------------------------------------------------------------------
    def thread(self, index):
        """Switch to host thread `index` (0 = main, 1 = the autograd device thread ...)."""
        if index not in self.threads:
            os_tid = self.pid if index == 0 else self.pid + 37 + 11 * index
            clock = self.cur.clock if self.cur else self.start_ns
            self.threads[index] = _Thread(os_tid, index + 1, clock)
        t = self.threads[index]
        if self.cur is not None and t is not self.cur:
            t.clock = max(t.clock, self.cur.clock)  # a thread wakes when it is handed work
        self.cur = t
        if t.et_root is None and self.et_active:
            t.et_root = self._new_id()
            self._write_et_node(
                t.et_root,
                "[pytorch|profiler|execution_trace|thread]",
                self.process_root,
                rf_id=0,
                scope=7,
                tid=t.et_tid,
                inputs=[],
                outputs=[],
            )
        return t

    def now(self):
        return self.cur.clock

    def host_work(self, lo_us, hi_us):
        """The host thread spends a random time between lo_us and hi_us (microseconds)."""
        self.cur.clock += self.us(lo_us, hi_us)

    def us(self, lo, hi):
        return int(self.rng.uniform(lo, hi) * 1000)

    def _new_id(self):
        i = self.next_id
        self.next_id += 1
        return i

    def stream_free(self, stream):
        return self.streams.get(stream, 0)

    # ---- operators ----------------------------------------------------------------------------
    def op(
        self, name, inputs=(), outputs=(), schema="", scope=0, seq=None, fwd_tid=None, kargs=None, attrs=None
    ):
        """A RecordFunction: an aten op (scope 0), a backward function (1) or an annotation (7)."""
        return _Op(self, name, inputs, outputs, schema, scope, seq, fwd_tid, kargs, attrs)

    def _enter(self, op):
        t = self.cur
        op.start = t.clock
        op.ext = self.next_ext
        self.next_ext += 1
        op.rf_id = self.next_rf
        self.next_rf += 1
        op.et_id = self._new_id() if self.et_active else None
        if self.et_active:
            self._name_tensors(op.inputs)
        op.parent_et = t.stack[-1].et_id if t.stack else t.et_root
        op.thread = t
        t.stack.append(op)
        t.clock += self.us(1.0, 2.5) if op.scope != 7 else self.us(0.6, 1.4)

    def _exit(self, op):
        t = self.cur
        assert t.stack and t.stack[-1] is op, "ops must nest on their thread"
        t.clock += self.us(0.8, 2.0) if op.scope != 7 else self.us(0.3, 0.9)
        t.stack.pop()
        op.end = t.clock
        if self.et_active:
            self._name_tensors(op.outputs)
        cat = "user_annotation" if op.scope == 7 else "cpu_op"
        args = {"External id": op.ext, "Record function id": op.rf_id}
        if op.seq is not None:
            args["Sequence number"] = op.seq
            args["Fwd thread id"] = op.fwd_tid if op.fwd_tid is not None else 0
        if op.scope != 7 and (op.inputs or op.schema):
            args.update(kineto_inputs(op.inputs))
        args.update(op.kargs)
        args["Ev Idx"] = self.ev_idx
        self.ev_idx += 1
        self.host.append(
            {
                "ph": "X",
                "cat": cat,
                "name": op.name,
                "pid": self.pid,
                "tid": t.os_tid,
                "ts": op.start,
                "dur": op.end - op.start,
                "args": args,
            }
        )
        if self.et_active:
            self._write_et_node(
                op.et_id,
                op.name,
                op.parent_et,
                rf_id=op.rf_id,
                scope=op.scope,
                tid=t.et_tid,
                inputs=op.inputs,
                outputs=op.outputs,
                schema=op.schema,
                seq=op.seq,
                fw_tid=(op.fwd_tid or 0) if op.seq is not None else 0,
                extra=op.attrs,
            )

    def _name_tensors(self, values):
        for v in values:
            if isinstance(v, Tensor):
                self._name_tensor(v)
            elif isinstance(v, list) and not isinstance(v, IntList):
                self._name_tensors(v)

    def _name_tensor(self, t):
        # As the observer does: a tensor id when the tensor is first seen, then its storage's id.
        owner = t.storage or t
        if t.tensor_id is None:
            t.tensor_id = self._new_id()
        if owner.storage_id is None:
            owner.storage_id = self._new_id()
        t.storage_id = owner.storage_id

    def _write_et_node(
        self,
        node_id,
        name,
        parent,
        rf_id,
        scope,
        tid,
        inputs,
        outputs,
        schema="",
        seq=None,
        fw_tid=0,
        extra=(),
    ):
        attrs = [
            {"name": "rf_id", "type": "uint64", "value": rf_id},
            {"name": "fw_parent", "type": "uint64", "value": 0},
            {"name": "seq_id", "type": "int64", "value": seq if seq is not None else -1},
            {"name": "scope", "type": "uint64", "value": scope},
            {"name": "tid", "type": "uint64", "value": tid},
            {"name": "fw_tid", "type": "uint64", "value": fw_tid},
            {"name": "op_schema", "type": "string", "value": schema},
        ]
        attrs.extend(extra)
        self.et_nodes.append(
            {
                "id": node_id,
                "name": name,
                "ctrl_deps": parent,
                "inputs": et_args(inputs),
                "outputs": et_args(outputs),
                "attrs": attrs,
            }
        )

    def finish_et(self):
        """Writes the process root last, as the observer does when it stops."""
        self._write_et_node(
            self.process_root,
            "[pytorch|profiler|execution_trace|process]",
            self.process_root,
            rf_id=0,
            scope=7,
            tid=0,
            inputs=[],
            outputs=[],
        )

    # ---- runtime calls and device work --------------------------------------------------------
    def _corr(self):
        c = self.next_corr
        # CUPTI numbers every runtime call, including the ones Kineto drops (cudaGetDevice ...).
        self.next_corr += 1 + (1 if self.rng.random() < 0.25 else 0)
        return c

    def _enclosing_ext(self):
        return self.cur.stack[-1].ext if self.cur.stack else None

    def _runtime_call(self, name, cbid, dur_ns, cat="cuda_runtime", corr=None):
        corr = corr if corr is not None else self._corr()
        args = {}
        ext = self._enclosing_ext()
        if ext is not None:
            args["External id"] = ext
        args["cbid"] = cbid
        args["correlation"] = corr
        ev = {
            "ph": "X",
            "cat": cat,
            "name": name,
            "pid": self.pid,
            "tid": self.cur.os_tid,
            "ts": self.cur.clock,
            "dur": dur_ns,
            "args": args,
        }
        self.runtime.append(ev)
        return ev, corr

    def _flow(self, corr, call_ev, dev_pid, dev_tid, dev_ts):
        self.runtime.append(
            {
                "ph": "s",
                "id": corr,
                "pid": call_ev["pid"],
                "tid": call_ev["tid"],
                "ts": call_ev["ts"],
                "cat": "ac2g",
                "name": "ac2g",
            }
        )
        self.runtime.append(
            {
                "ph": "f",
                "id": corr,
                "pid": dev_pid,
                "tid": dev_tid,
                "ts": dev_ts,
                "cat": "ac2g",
                "name": "ac2g",
                "bp": "e",
            }
        )
        self.flows["ac2g"] += 1

    def _queue(self, stream, earliest, dur_ns):
        self.launched.add(stream)
        start = max(earliest, self.stream_free(stream))
        self.streams[stream] = start + dur_ns
        return start

    def kernel(
        self,
        name,
        dur_us,
        stream=7,
        grid=(1, 1, 1),
        block=(128, 1, 1),
        regs=32,
        smem=0,
        api="cudaLaunchKernel",
        api_cat="cuda_runtime",
        jitter=0.04,
    ):
        """Launches a kernel of about dur_us microseconds on `stream` from the current op."""
        cbid = {
            "cudaLaunchKernel": 211,
            "cudaLaunchKernelExC": 430,
            "cuLaunchKernel": 307,
            "cuLaunchKernelEx": 652,
        }[api]
        call_dur = self.us(2.6, 4.8) if api_cat == "cuda_runtime" else self.us(4.0, 7.5)
        call, corr = self._runtime_call(api, cbid, call_dur, cat=api_cat)
        dur = int(dur_us * 1000 * self.rng.uniform(1 - jitter, 1 + jitter))
        start = self._queue(stream, call["ts"] + self.us(3.0, 6.0), dur)
        blocks = grid[0] * grid[1] * grid[2]
        threads = block[0] * block[1] * block[2]
        sms = 132
        warps_per_sm = round(blocks * ((threads + 31) // 32) / sms, 6)
        occupancy = min(100, int(100 * min(warps_per_sm, 64) / 64))
        self.runtime.append(
            {
                "ph": "X",
                "cat": "kernel",
                "name": name,
                "pid": self.device,
                "tid": stream,
                "ts": start,
                "dur": dur,
                "args": {
                    "External id": call["args"].get("External id", 0),
                    "queued": 0,
                    "device": self.device,
                    "context": 1,
                    "stream": stream,
                    "correlation": corr,
                    "registers per thread": regs,
                    "shared memory": smem,
                    "blocks per SM": round(blocks / sms, 6),
                    "warps per SM": warps_per_sm,
                    "grid": list(grid),
                    "block": list(block),
                    "est. achieved occupancy %": occupancy,
                },
            }
        )
        self._flow(corr, call, self.device, stream, start)
        self.cur.clock += call_dur + self.us(0.3, 1.0)
        return start + dur

    def collective_kernel(self, index, name, transfer_us, stream, grid, block, regs):
        """An NCCL kernel: it starts when its stream is ready and ends once every rank has arrived
        (peer_ready, from the previous generation pass) and the data has moved."""
        call_dur = self.us(3.0, 5.0)
        call, corr = self._runtime_call("cudaLaunchKernelExC", 430, call_dur)
        start = max(call["ts"] + self.us(3.0, 6.0), self.stream_free(stream))
        self.collective_ready[index] = start
        end = max(start, self.peer_ready.get(index, start)) + int(transfer_us * 1000)
        self.streams[stream] = end
        self.launched.add(stream)
        self.runtime.append(
            {
                "ph": "X",
                "cat": "kernel",
                "name": name,
                "pid": self.device,
                "tid": stream,
                "ts": start,
                "dur": end - start,
                "args": {
                    "External id": call["args"].get("External id", 0),
                    "queued": 0,
                    "device": self.device,
                    "context": 1,
                    "stream": stream,
                    "correlation": corr,
                    "registers per thread": regs,
                    "shared memory": 0,
                    "blocks per SM": round(grid[0] / 132, 6),
                    "warps per SM": round(grid[0] * block[0] / 32 / 132, 6),
                    "grid": list(grid),
                    "block": list(block),
                    "est. achieved occupancy %": 0,
                },
            }
        )
        self._flow(corr, call, self.device, stream, start)
        self.cur.clock += call_dur + self.us(0.3, 1.0)
        return end

    def et_only_op(self, name, inputs, scope=7):
        """A node the observer writes with no Kineto counterpart (## process_group:init ##)."""
        t = self.cur
        node_id = self._new_id()
        rf_id = self.next_rf
        self.next_rf += 1
        parent = t.stack[-1].et_id if t.stack else t.et_root
        self._write_et_node(
            node_id, name, parent, rf_id=rf_id, scope=scope, tid=t.et_tid, inputs=inputs, outputs=[]
        )
        self.et_only_ops += 1

    def memcpy(self, kind, nbytes, stream=7, gbps=None, blocking=False):
        """cudaMemcpyAsync of `nbytes`; kind "HtoD" (pinned) or "DtoH" (pageable)."""
        names = {
            "HtoD": "Memcpy HtoD (Pinned -> Device)",
            "DtoH": "Memcpy DtoH (Device -> Pageable)",
            "DtoD": "Memcpy DtoD (Device -> Device)",
        }
        gbps = gbps or {"HtoD": 48.0, "DtoH": 12.0, "DtoD": 1400.0}[kind]
        call_dur = self.us(3.5, 7.0)
        call, corr = self._runtime_call("cudaMemcpyAsync", 41, call_dur)
        dur = max(1200, int(nbytes / gbps)) + self.us(0.5, 1.2)  # bytes / (GB/s) = ns
        start = self._queue(stream, call["ts"] + self.us(2.0, 4.0), dur)
        self.runtime.append(
            {
                "ph": "X",
                "cat": "gpu_memcpy",
                "name": names[kind],
                "pid": self.device,
                "tid": stream,
                "ts": start,
                "dur": dur,
                "args": {
                    "External id": call["args"].get("External id", 0),
                    "device": self.device,
                    "context": 1,
                    "stream": stream,
                    "correlation": corr,
                    "bytes": nbytes,
                    "memory bandwidth (GB/s)": round(nbytes / dur, 6),
                },
            }
        )
        self._flow(corr, call, self.device, stream, start)
        self.cur.clock += call_dur + self.us(0.3, 1.0)
        return start + dur

    def memset(self, nbytes, stream=7):
        call_dur = self.us(2.5, 4.5)
        call, corr = self._runtime_call("cudaMemsetAsync", 51, call_dur)
        dur = max(1100, int(nbytes / 2000.0)) + self.us(0.2, 0.6)
        start = self._queue(stream, call["ts"] + self.us(2.0, 4.0), dur)
        self.runtime.append(
            {
                "ph": "X",
                "cat": "gpu_memset",
                "name": "Memset (Device)",
                "pid": self.device,
                "tid": stream,
                "ts": start,
                "dur": dur,
                "args": {
                    "External id": call["args"].get("External id", 0),
                    "device": self.device,
                    "context": 1,
                    "stream": stream,
                    "correlation": corr,
                    "bytes": nbytes,
                    "memory bandwidth (GB/s)": round(nbytes / dur, 6),
                },
            }
        )
        self._flow(corr, call, self.device, stream, start)
        self.cur.clock += call_dur + self.us(0.3, 1.0)
        return start + dur

    def _sync_event(self, kind, call, corr, tid, ts, dur, extra):
        args = {"External id": call["args"].get("External id", 0), "cuda_sync_kind": kind}
        args.update(extra)
        args.update({"correlation": corr, "device": self.device, "context": 1})
        self.runtime.append(
            {
                "ph": "X",
                "cat": "cuda_sync",
                "name": kind,
                "pid": self.device,
                "tid": tid,
                "ts": ts,
                "dur": dur,
                "args": args,
            }
        )
        self.runtime.append(
            {
                "ph": "s",
                "id": corr,
                "pid": call["pid"],
                "tid": call["tid"],
                "ts": call["ts"],
                "cat": "ac2g",
                "name": "ac2g",
            }
        )
        self.runtime.append(
            {
                "ph": "f",
                "id": corr,
                "pid": self.device,
                "tid": tid,
                "ts": ts,
                "cat": "ac2g",
                "name": "ac2g",
                "bp": "e",
            }
        )
        self.flows["ac2g"] += 1

    def record_event(self, stream=7):
        """torch.cuda.Event.record(stream): cudaEventRecord; done when the stream's work is."""
        call_dur = self.us(1.5, 3.0)
        call, corr = self._runtime_call("cudaEventRecord", 135, call_dur)
        ev = Event(stream, max(self.stream_free(stream), call["ts"]), corr, self.next_cuda_event)
        ev.has_work = stream in self.launched
        self.next_cuda_event += 1
        self.cur.clock += call_dur + self.us(0.2, 0.6)
        return ev

    def stream_wait_event(self, stream, ev):
        """stream.wait_event(ev): cudaStreamWaitEvent, a Stream Wait Event on the waiting stream."""
        call_dur = self.us(1.5, 3.0)
        call, corr = self._runtime_call("cudaStreamWaitEvent", 147, call_dur)
        self.streams[stream] = max(self.stream_free(stream), ev.done_ns)
        self.stream_waits_on_work += ev.has_work
        self.waits_without_work += not ev.has_work
        self._sync_event(
            "Stream Wait Event",
            call,
            corr,
            stream,
            call["ts"] + 500,
            call_dur - 800,
            {
                "wait_on_stream": ev.stream,
                "wait_on_cuda_event_record_corr_id": ev.record_corr,
                "wait_on_cuda_event_id": ev.event_id,
                "stream": stream,
            },
        )
        self.cur.clock += call_dur + self.us(0.2, 0.6)

    def _blocking(self, name, cbid, until_ns):
        t0 = self.cur.clock
        dur = max(self.us(2.0, 4.0), until_ns - t0 + self.us(1.5, 3.0))
        call, corr = self._runtime_call(name, cbid, dur)
        self.cur.clock = t0 + dur + self.us(0.3, 0.8)
        return call, corr, t0, dur

    def event_synchronize(self, ev):
        """ev.synchronize(): the host waits for the event (Event Sync)."""
        call, corr, t0, dur = self._blocking("cudaEventSynchronize", 137, ev.done_ns)
        self.host_waits_on_work += ev.has_work
        self.blocking_calls_on_work += ev.has_work
        self.waits_without_work += not ev.has_work
        self._sync_event(
            "Event Sync",
            call,
            corr,
            -1,
            t0 + 700,
            dur - 1200,
            {
                "wait_on_stream": ev.stream,
                "wait_on_cuda_event_record_corr_id": ev.record_corr,
                "wait_on_cuda_event_id": ev.event_id,
                "stream": -1,
            },
        )

    def stream_synchronize(self, stream=7):
        call, corr, t0, dur = self._blocking("cudaStreamSynchronize", 131, self.stream_free(stream))
        self.host_waits_on_work += stream in self.launched
        self.blocking_calls_on_work += stream in self.launched
        self._sync_event("Stream Sync", call, corr, stream, t0 + 700, dur - 1200, {"stream": stream})

    def device_synchronize(self):
        """torch.cuda.synchronize(): waits for every stream (Context Sync)."""
        until = max(self.streams.values()) if self.streams else self.cur.clock
        call, corr, t0, dur = self._blocking("cudaDeviceSynchronize", 165, until)
        self.host_waits_on_work += len(self.launched)
        self.blocking_calls_on_work += bool(self.launched)
        self._sync_event("Context Sync", call, corr, -1, t0 + 700, dur - 1200, {"stream": -1})

    def fwdbwd(self, fwd_op_ev_ts, fwd_tid, bwd_ts, bwd_tid):
        """The forward-to-backward flow Kineto draws from a forward op to its backward function."""
        flow_id = self.flows["fwdbwd"] + 1
        self.host.append(
            {
                "ph": "s",
                "id": flow_id,
                "pid": self.pid,
                "tid": fwd_tid,
                "ts": fwd_op_ev_ts,
                "cat": "fwdbwd",
                "name": "fwdbwd",
            }
        )
        self.host.append(
            {
                "ph": "f",
                "id": flow_id,
                "pid": self.pid,
                "tid": bwd_tid,
                "ts": bwd_ts,
                "cat": "fwdbwd",
                "name": "fwdbwd",
                "bp": "e",
            }
        )
        self.flows["fwdbwd"] += 1


def kineto_inputs(values):
    """The record_shapes args of a cpu_op: Concrete Inputs, Input type, Input Strides, Input Dims."""
    concrete, types, strides, dims = [], [], [], []
    for v in values:
        if isinstance(v, Tensor):
            concrete.append("")
            types.append(DTYPES[v.dtype][1])
            strides.append(list(v.strides))
            dims.append(list(v.shape))
        elif isinstance(v, IntList):
            concrete.append("[" + ", ".join(str(x) for x in v) + "]")
            types.append("ScalarList")
            strides.append([])
            dims.append([])
        elif isinstance(v, Tup):
            concrete.append("")
            types.append("")
            strides.append([])
            dims.append([])
        elif isinstance(v, list):  # a tensor list
            concrete.append("")
            types.append("TensorList")
            strides.append([])
            dims.append([])
        elif isinstance(v, bool):
            concrete.append("True" if v else "False")
            types.append("Scalar")
            strides.append([])
            dims.append([])
        elif isinstance(v, (int, float)):
            concrete.append(repr(v))
            types.append("Scalar")
            strides.append([])
            dims.append([])
        else:  # None, strings, objects
            concrete.append("")
            types.append("")
            strides.append([])
            dims.append([])
    return {"Concrete Inputs": concrete, "Input type": types, "Input Strides": strides, "Input Dims": dims}


def _et_value(v):
    if isinstance(v, Tensor):
        return (
            [v.tensor_id, v.storage_id, v.offset, v.numel(), v.itemsize(), v.device],
            list(v.shape),
            DTYPES[v.dtype][0],
        )
    if isinstance(v, IntList):
        return list(v), [[] for _ in v], "GenericList[Int]"
    if isinstance(v, Tup):
        parts = [_et_value(x) for x in v]
        return [p[0] for p in parts], [p[1] for p in parts], "Tuple[%s]" % ",".join(p[2] for p in parts)
    if isinstance(v, list):
        parts = [_et_value(x) for x in v]
        inner = ",".join(sorted({p[2] for p in parts})) if parts else ""
        return [p[0] for p in parts], [p[1] for p in parts], "GenericList[%s]" % inner
    if isinstance(v, bool):
        return v, [], "Bool"
    if isinstance(v, int):
        return v, [], "Int"
    if isinstance(v, float):
        return v, [], "Double"
    if isinstance(v, str):
        return v, [], "String"
    if isinstance(v, Obj):
        return "<Object>", [], "Object"
    if v is None:
        return "<None>", [], "None"
    raise TypeError(type(v))


def et_args(values):
    vals, shapes, types = [], [], []
    for v in values:
        a, b, c = _et_value(v)
        vals.append(a)
        shapes.append(b)
        types.append(c)
    return {"values": vals, "shapes": shapes, "types": types}


def stable_seed(*parts):
    """A seed from strings and ints that does not depend on Python's hash randomisation."""
    return zlib.crc32("/".join(str(p) for p in parts).encode())
