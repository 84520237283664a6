// SPDX-License-Identifier: MIT
// `sutra-cli jsonize FILE.et`: a Chakra execution trace as JSON, like Chakra's chakra_jsonizer.
#include <google/protobuf/util/json_util.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <nlohmann/json.hpp>
#include <optional>

#include "chakra/et_file.h"
#include "cli_args.h"
#include "command.h"
#include "util/atomic_file.h"

namespace sutra::cli {
namespace {

constexpr const char* kHelp =
    "Usage: sutra-cli jsonize FILE.et [-o OUT.json] [--chakra]\n"
    "Prints a Chakra execution trace (.et, plain or gzip) as JSON.\n\n"
    "Default output: one JSON document {\"path\", \"global_metadata\", \"nodes\": [...],\n"
    "\"problems\": [...]} with the schema's field names (ctrl_deps, start_time_micros ...), one\n"
    "node per line, and the problems the reader found (absent or self dependencies, "
    "duplicates).\n\n"
    "Options:\n"
    "  -o FILE     write to FILE (FILE.gz: gzipped) instead of standard output; the file is\n"
    "              replaced only when all of it is written\n"
    "  --chakra    write what chakra_jsonizer writes: the GlobalMetadata and then each node as\n"
    "              separate indented JSON objects with protobuf's camelCase names\n"
    "  -h, --help  show this help\n";

std::string toJson(const google::protobuf::Message& m, bool chakraStyle) {
  google::protobuf::util::JsonPrintOptions opts;
  opts.preserve_proto_field_names = !chakraStyle;
  opts.add_whitespace = chakraStyle;
  std::string out;
  (void)google::protobuf::util::MessageToJsonString(m, &out, opts);
  return out;
}

int runJsonize(int argc, char** argv) {
  std::string error;
  auto args = Args::parse(argc, argv, {"-o"}, {"--chakra", "-h", "--help"}, error);
  if (!args) {
    std::fprintf(stderr, "sutra-cli jsonize: %s\n%s", error.c_str(), kHelp);
    return kExitBadInput;
  }
  if (args->flag("-h") || args->flag("--help")) {
    std::fputs(kHelp, stdout);
    return kExitOk;
  }
  if (args->positional().size() != 1) {
    std::fprintf(stderr, "sutra-cli jsonize: expected one .et file\n%s", kHelp);
    return kExitBadInput;
  }
  const std::string path = args->positional()[0];
  auto trace = chakra::readChakraTrace(path);
  if (!trace) return fail("jsonize", trace.error().message);
  // The output goes to standard output, or through the atomic writer every command uses: the
  // whole file or nothing (a full disk, a Ctrl-C or an error leaves the old file as it was).
  std::optional<AtomicFile> file;
  if (auto o = args->value("-o")) {
    AtomicFileOptions options;
    options.gzip = hasGzipSuffix(*o);
    options.protectedPaths = {path};
    auto created = AtomicFile::create(*o, options);
    if (!created) return fail("jsonize", created.error().message);
    file.emplace(std::move(*created));
  }
  std::string buffer;
  Status written = Ok{};
  auto flush = [&] {
    if (!written || buffer.empty()) return;
    if (file) {
      written = file->write(buffer);
    } else if (std::fwrite(buffer.data(), 1, buffer.size(), stdout) != buffer.size()) {
      written = Error{std::string("standard output: write failed: ") + std::strerror(errno)};
    }
    buffer.clear();
  };
  auto emit = [&](std::string_view text) {
    buffer += text;
    if (buffer.size() >= (1u << 20)) flush();
  };
  const bool chakraStyle = args->flag("--chakra");
  if (chakraStyle) {
    emit(toJson(trace->meta, true));
    for (const auto& n : trace->nodes) emit(toJson(n, true));
  } else {
    nlohmann::json problems = nlohmann::json::array();
    for (const auto& p : trace->problems.all())
      problems.push_back({{"severity", severityName(p.severity)},
                          {"what", p.what},
                          {"count", p.count},
                          {"example", p.example}});
    emit("{\"path\":" + jsonText(nlohmann::json(path)));
    emit(",\n\"global_metadata\":" + toJson(trace->meta, false) + ",\n\"nodes\":[");
    for (std::size_t i = 0; i < trace->nodes.size(); ++i) {
      emit(i ? ",\n" : "\n");
      emit(toJson(trace->nodes[i], false));
    }
    emit("\n],\n\"problems\":" + jsonText(problems) + "}\n");
  }
  flush();
  if (written && file) written = file->commit();
  if (written && !file && std::fflush(stdout) != 0)
    written = Error{std::string("standard output: write failed: ") + std::strerror(errno)};
  if (!written) return fail("jsonize", written.error().message);
  return kExitOk;
}

const RegisterCommand reg{
    {"jsonize", "print a Chakra .et file as JSON (like chakra_jsonizer)", 60, &runJsonize}};

}  // namespace
}  // namespace sutra::cli
