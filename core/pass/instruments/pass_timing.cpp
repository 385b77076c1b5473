/// \file
/// The PassTiming instrument.

#include "pass/instruments/pass_timing.h"

#include <algorithm>
#include <cstdio>

namespace byoc {

void PassTimingInstrument::enterContext() {
  rows_.clear();
  open_.clear();
}

void PassTimingInstrument::beforePass(const Module& /*module*/, const PassInfo& info) {
  rows_.push_back({info.name, static_cast<int>(open_.size()), std::chrono::nanoseconds(0)});
  open_.emplace_back(rows_.size() - 1, std::chrono::steady_clock::now());
}

Status PassTimingInstrument::afterPass(const PassResult& /*result*/, const PassInfo& /*info*/) {
  finish();
  return Status::ok();
}

void PassTimingInstrument::afterPassFailed(const Module& /*module*/, const PassInfo& /*info*/,
                                           const Diagnostic& /*error*/) {
  finish();
}

void PassTimingInstrument::finish() {
  if (open_.empty()) return;
  auto [index, start] = open_.back();
  open_.pop_back();
  rows_[index].elapsed = std::chrono::steady_clock::now() - start;
}

std::string PassTimingInstrument::render() const {
  std::chrono::nanoseconds total{0};
  std::size_t width = 4;
  for (const PassTimingRow& row : rows_) {
    if (row.depth == 0) total += row.elapsed;
    width = std::max(width, row.pass.size() + 2 * static_cast<std::size_t>(row.depth));
  }
  auto line = [width](const std::string& pass, const std::string& time, const std::string& share) {
    std::string out = pass;
    out.resize(width + 2, ' ');
    std::string timeColumn = time;
    if (timeColumn.size() < 12) timeColumn.insert(0, 12 - timeColumn.size(), ' ');
    return out + timeColumn + "  " + share + "\n";
  };
  std::string out = line("pass", "time (ms)", "share");
  for (const PassTimingRow& row : rows_) {
    char time[32];
    std::snprintf(time, sizeof time, "%.3f", static_cast<double>(row.elapsed.count()) / 1e6);
    char share[32];
    double fraction = total.count() ? static_cast<double>(row.elapsed.count()) / static_cast<double>(total.count()) : 0;
    std::snprintf(share, sizeof share, "%5.1f%%", 100.0 * fraction);
    out += line(std::string(2 * static_cast<std::size_t>(row.depth), ' ') + row.pass, time, share);
  }
  char totalText[32];
  std::snprintf(totalText, sizeof totalText, "%.3f", static_cast<double>(total.count()) / 1e6);
  return out + line("total", totalText, "100.0%");
}

}  // namespace byoc
