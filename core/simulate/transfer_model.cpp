// SPDX-License-Identifier: MIT
#include "simulate/transfer_model.h"

#include <cmath>
#include <cstdio>

#include "chakra/astra_sim_config.h"
#include "chakra/collective.h"

namespace sutra {
namespace {

// The ring's steps and the bytes each rank sends for one sample; zero steps where the ring does
// not price it (an unknown size or kind, broadcast).
chakra::RingCost ringOf(const TransferSample& s) {
  const auto c = chakra::collectiveFromName(s.collective);
  const auto type = c ? chakra::chakraCommType(*c) : std::nullopt;
  if (!type || s.bytes <= 0 || s.ranks < 2) return {};
  return chakra::ringCost(static_cast<int>(*type), static_cast<double>(s.bytes),
                          static_cast<int>(s.ranks));
}

}  // namespace

TransferFit fitTransferModel(std::vector<SimCollective>& collectives,
                             const std::vector<TransferSample>& samples) {
  TransferFit fit;
  std::vector<chakra::RingCost> rings(samples.size());
  // Least squares of measured = latency * steps + bytes * nsPerByte (the 2x2 normal equations).
  double ss = 0, sb = 0, bb = 0, sd = 0, bd = 0;
  for (std::size_t i = 0; i < samples.size(); ++i) {
    rings[i] = ringOf(samples[i]);
    const auto& r = rings[i];
    if (r.steps <= 0 || samples[i].measuredNs <= 0) {
      fit.unsized += !collectives[i].pointToPoint;
      continue;
    }
    const double d = static_cast<double>(samples[i].measuredNs);
    ss += r.steps * r.steps;
    sb += r.steps * r.bytes;
    bb += r.bytes * r.bytes;
    sd += r.steps * d;
    bd += r.bytes * d;
    fit.measuredNs += d;
    ++fit.fitted;
  }
  if (fit.fitted == 0) {
    fit.basis = "no collective of known size to fit: each transfer scales whole";
    return fit;
  }
  const double det = ss * bb - sb * sb;
  if (det > 1e-9 * ss * bb) {
    fit.latencyNs = (sd * bb - bd * sb) / det;
    fit.nsPerByte = (ss * bd - sb * sd) / det;
    fit.basis = "least squares";
  }
  if (det <= 1e-9 * ss * bb || fit.latencyNs < 0 || fit.nsPerByte <= 0) {
    // One size (latency and bandwidth cannot be told apart), or a line through the sizes that
    // would need a negative latency: all of the transfer is the bandwidth's.
    fit.latencyNs = 0;
    fit.nsPerByte = bd / bb;
    fit.basis = det <= 1e-9 * ss * bb ? "one size: all bandwidth" : "latency clamped to 0";
  }
  double squares = 0;
  for (std::size_t i = 0; i < samples.size(); ++i) {
    const auto& r = rings[i];
    SimCollective& c = collectives[i];
    if (r.steps <= 0) continue;
    c.transferLatencyNs = static_cast<TimeNs>(std::llround(fit.latencyNs * r.steps));
    c.transferBandwidthNs = static_cast<TimeNs>(std::llround(fit.nsPerByte * r.bytes));
    if (samples[i].measuredNs > 0) {
      const double residual = static_cast<double>(samples[i].measuredNs) -
                              static_cast<double>(c.transferLatencyNs + c.transferBandwidthNs);
      squares += residual * residual;
    }
  }
  fit.residualRmsNs = std::sqrt(squares / static_cast<double>(fit.fitted));
  char buf[160];
  std::snprintf(buf, sizeof buf, " over %zu collective(s): %.4g GB/s, %.4g us a step", fit.fitted,
                fit.bandwidthGBps(), fit.latencyNs / 1000.0);
  fit.basis += buf;
  return fit;
}

}  // namespace sutra
