// SPDX-License-Identifier: MIT
// `sutra-cli jsonize FILE.et`: a Chakra execution trace as JSON, like Chakra's chakra_jsonizer.
#include <google/protobuf/util/json_util.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "chakra/et_file.h"
#include "cli_args.h"
#include "command.h"

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
    "  -o FILE     write to FILE instead of standard output\n"
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
  if (!trace) {
    std::fprintf(stderr, "sutra-cli jsonize: %s\n", trace.error().message.c_str());
    return kExitBadInput;
  }
  std::ofstream file;
  std::ostream* out = &std::cout;
  if (auto o = args->value("-o")) {
    std::error_code ec;
    if (std::filesystem::exists(*o, ec) && std::filesystem::equivalent(*o, path, ec)) {
      std::fprintf(stderr, "sutra-cli jsonize: %s: refusing to overwrite the input\n", o->c_str());
      return kExitBadInput;
    }
    file.open(*o, std::ios::binary | std::ios::trunc);
    if (!file) {
      std::fprintf(stderr, "sutra-cli jsonize: %s: cannot open for writing\n", o->c_str());
      return kExitBadInput;
    }
    out = &file;
  }
  const bool chakraStyle = args->flag("--chakra");
  if (chakraStyle) {
    *out << toJson(trace->meta, true);
    for (const auto& n : trace->nodes) *out << toJson(n, true);
  } else {
    nlohmann::json problems = nlohmann::json::array();
    for (const auto& p : trace->problems.all())
      problems.push_back({{"severity", severityName(p.severity)},
                          {"what", p.what},
                          {"count", p.count},
                          {"example", p.example}});
    *out << "{\"path\":" << nlohmann::json(path).dump()
         << ",\n\"global_metadata\":" << toJson(trace->meta, false) << ",\n\"nodes\":[";
    for (std::size_t i = 0; i < trace->nodes.size(); ++i)
      *out << (i ? ",\n" : "\n") << toJson(trace->nodes[i], false);
    *out << "\n],\n\"problems\":" << problems.dump() << "}\n";
  }
  out->flush();
  if (!*out) {
    std::fprintf(stderr, "sutra-cli jsonize: write failed\n");
    return kExitBadInput;
  }
  return kExitOk;
}

const RegisterCommand reg{
    {"jsonize", "print a Chakra .et file as JSON (like chakra_jsonizer)", 60, &runJsonize}};

}  // namespace
}  // namespace sutra::cli
