// SPDX-License-Identifier: MIT
#include "io/kineto_simdjson_parse.h"

#include <algorithm>
#include <cstdlib>

#include "io/json_numbers.h"

namespace sutra {
namespace {

namespace od = simdjson::ondemand;

// The text of a scalar: a string's content, or a number's / literal's JSON token.
bool scalarText(od::value& v, std::string_view& out) {
  od::json_type type;
  if (v.type().get(type)) return false;
  if (type == od::json_type::string) return !v.get_string().get(out);
  if (type == od::json_type::object || type == od::json_type::array) return false;
  out = trimJsonToken(v.raw_json_token());
  return true;
}

// Replaces every byte that is not part of a well-formed UTF-8 sequence with '?', in place (the
// length stays, so byte offsets in messages stay true). Returns how many bytes were replaced.
std::size_t replaceInvalidUtf8(std::string& text) {
  std::size_t replaced = 0;
  auto* p = reinterpret_cast<unsigned char*>(text.data());
  const std::size_t n = text.size();
  for (std::size_t i = 0; i < n;) {
    const unsigned char c = p[i];
    std::size_t length = c < 0x80           ? 1
                         : (c >> 5) == 0x6  ? 2
                         : (c >> 4) == 0xe  ? 3
                         : (c >> 3) == 0x1e ? 4
                                            : 0;
    bool ok = length > 0 && i + length <= n && !(length == 2 && c < 0xc2);
    for (std::size_t k = 1; ok && k < length; ++k) ok = (p[i + k] & 0xc0) == 0x80;
    if (ok && length == 3) {
      const unsigned cp = ((c & 0x0fu) << 12) | ((p[i + 1] & 0x3fu) << 6);
      ok = cp >= 0x800 && !(cp >= 0xd800 && cp <= 0xdfff);
    } else if (ok && length == 4) {
      const unsigned cp = ((c & 0x07u) << 18) | ((p[i + 1] & 0x3fu) << 12);
      ok = cp >= 0x10000 && cp <= 0x10ffff;
    }
    if (ok) {
      i += length;
    } else {
      p[i++] = '?';
      ++replaced;
    }
  }
  return replaced;
}

}  // namespace

Status SimdjsonEventParser::parse(const JsonBatch& batch, RawEventSink& sink,
                                  ProblemLog& problems) {
  auto fail = [&](simdjson::error_code code, const char* location) -> Error {
    std::uint64_t at = batch.fileOffset;
    if (location && location >= batch.data && location <= batch.data + batch.size)
      at += location - batch.data;
    return makeError(path_, "malformed JSON near byte " + std::to_string(at) +
                                " in traceEvents: " + simdjson::error_message(code));
  };
  od::document doc;
  auto err = parser_.iterate(batch.data, batch.size, batch.capacity).get(doc);
  if (err == simdjson::UTF8_ERROR) {
    // Names cut in the middle of a multi-byte character exist in real traces: repair the chunk
    // (invalid bytes become '?') instead of refusing the file, and count it.
    repaired_.assign(batch.data, batch.size);
    const std::size_t replaced = replaceInvalidUtf8(repaired_);
    problems.add(Severity::Warning, "invalid UTF-8 bytes in strings (replaced with '?')", replaced,
                 "near byte " + std::to_string(batch.fileOffset));
    repaired_.append(simdjson::SIMDJSON_PADDING, ' ');
    err = parser_.iterate(repaired_.data(), batch.size, repaired_.size()).get(doc);
  }
  if (err) return fail(err, nullptr);
  od::array events;
  if (auto err = doc.get_array().get(events)) return fail(err, nullptr);
  std::size_t seen = 0;
  for (auto element : events) {
    ++seen;
    od::object object;
    if (auto err = element.get_object().get(object)) {
      if (err == simdjson::INCORRECT_TYPE) {
        problems.add(Severity::Warning, "trace event that is not a JSON object, skipped");
        continue;
      }
      const char* loc = nullptr;
      if (auto where = doc.current_location(); !where.error()) loc = where.value_unsafe();
      return fail(err, loc);
    }
    if (auto s = parseEvent(object, batch.fileOffset, sink); !s) return s.error();
  }
  // On Demand stops iterating at some structural errors without reporting one: the scan counted
  // the batch's elements, and a batch that ends early is malformed, not shorter.
  if (seen != batch.elements)
    return makeError(path_, "malformed JSON in traceEvents near byte " +
                                std::to_string(batch.fileOffset) + ": " +
                                std::to_string(batch.elements - std::min(seen, batch.elements)) +
                                " of the events from there could not be read");
  return Ok{};
}

Status SimdjsonEventParser::parseEvent(od::object& object, std::uint64_t batchOffset,
                                       RawEventSink& sink) {
  RawEvent raw;
  for (auto field : object) {
    od::raw_json_string key;
    if (auto err = field.key().get(key))
      return makeError(path_, "malformed event near byte " + std::to_string(batchOffset) + ": " +
                                  simdjson::error_message(err));
    od::value v = field.value();
    const Field kind = fieldOf(key.raw());
    std::string_view* slot = raw.slotFor(kind);
    if (kind == Field::Args) {
      od::object args;
      if (v.get_object().get(args)) continue;  // args that are not an object carry nothing we use
      if (args.raw_json().get(raw.argsRaw) || args.reset().error())
        return makeError(path_, "malformed args object near byte " + std::to_string(batchOffset));
      // Kineto writes "ph" first; where it comes later, KinetoBatchBuilder reads a counter's args
      // from argsRaw.
      const bool counter = raw.isCounter();
      for (auto arg : args) {
        od::raw_json_string argKey;
        if (auto err = arg.key().get(argKey))  // a silent break here dropped the rest of the batch
          return makeError(path_, "malformed args object near byte " + std::to_string(batchOffset) +
                                      ": " + simdjson::error_message(err));
        od::value av = arg.value();
        std::string_view text;
        const Field argField = argFieldOf(argKey.raw());
        if (argField == Field::ExternalId) {
          if (scalarText(av, text)) raw.externalId = integerText(text).value_or(kNoId);
        } else if (argField == Field::Correlation) {
          if (scalarText(av, text)) raw.correlation = integerText(text).value_or(kNoId);
        } else if (argField == Field::RecordFunctionId) {
          if (scalarText(av, text)) raw.recordFunctionId = integerText(text).value_or(kNoId);
        } else if (argField == Field::Name && !counter) {
          if (scalarText(av, text)) raw.metaName = text;
        } else if (argField == Field::SortIndex && !counter) {
          if (scalarText(av, text)) {
            raw.metaSortIndex = integerText(text).value_or(0);
            raw.hasMetaSortIndex = true;
          }
        } else if (counter) {
          std::string_view k;
          if (scalarText(av, text) && !arg.unescaped_key().get(k))
            raw.counterValues.emplace_back(std::string(k),
                                           std::strtod(std::string(text).c_str(), nullptr));
        }
      }
      continue;
    }
    if (!slot) continue;  // unknown fields are data Sutra does not need
    if (!scalarText(v, *slot)) *slot = {};
    // Views from get_string() point into the parser's buffer, valid until the next document: every
    // one is consumed (interned or copied) before this batch's parse returns.
  }
  sink.event(raw);
  return Ok{};
}

}  // namespace sutra
