#include <algorithm>
#include <iostream>
#include <map>

#include "commands.h"
#include "model_input.h"
#include "pass/analysis/partition_diff.h"

namespace byoc::cli {

namespace {

/// Rows printed with every column padded to its widest cell.
class Table {
 public:
  void add(std::vector<std::string> row) { rows_.push_back(std::move(row)); }
  void print(std::ostream& out) const {
    std::vector<std::size_t> widths;
    for (const auto& row : rows_)
      for (std::size_t i = 0; i < row.size(); ++i) {
        if (widths.size() <= i) widths.push_back(0);
        widths[i] = std::max(widths[i], row[i].size());
      }
    for (const auto& row : rows_) {
      std::string line = " ";
      for (std::size_t i = 0; i < row.size(); ++i)
        line += " " + (i + 1 < row.size() ? row[i] + std::string(widths[i] - row[i].size(), ' ') : row[i]);
      out << line << "\n";
    }
  }

 private:
  std::vector<std::vector<std::string>> rows_;
};

/// A loaded op call as a person finds it: its name in the source model, else its place in the text.
std::string callName(const Module& loaded, NodeId id, const std::string& op) {
  if (const auto& provenance = loaded.provenance()) {
    if (auto name = provenance->names.find(id); name != provenance->names.end() && !name->second.empty()) return name->second;
    if (auto place = provenance->locations.find(id); place != provenance->locations.end()) return op + " at " + place->second.str();
  }
  return op;
}

std::string commaSeparated(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : ", ") + name;
  return text;
}

std::string plural(std::size_t count, const std::string& noun) {
  return std::to_string(count) + " " + noun + (count == 1 ? "" : "s");
}

/// A name cut to a table cell (merged Relax functions are named after every composite they hold).
std::string elided(const std::string& name) {
  constexpr std::size_t kWidth = 48;
  return name.size() <= kWidth ? name : name.substr(0, kWidth - 3) + "...";
}

/// Regions as a table cell: one or two by name, more as the first and a count.
std::string regionList(const std::vector<std::string>& names) {
  if (names.empty()) return "-";
  if (names.size() == 1) return elided(names[0]);
  if (names.size() == 2) return elided(names[0]) + ", " + elided(names[1]);
  return elided(names[0]) + " and " + std::to_string(names.size() - 1) + " more";
}

void printOffload(const Module& loaded, const PartitionDiff& diff) {
  const std::vector<OffloadRow> rows = offloadRows(diff);
  if (rows.empty()) return;
  std::cout << "\nop calls placed differently:\n";
  Table table;
  table.add({"op", "calls", "A", "B", "e.g."});
  for (const OffloadRow& row : rows)
    table.add({row.op, std::to_string(row.calls.size()), row.a, row.b, callName(loaded, row.calls.front(), row.op)});
  table.print(std::cout);
}

void printRegions(const PartitionDiff& diff) {
  if (diff.regions.empty()) return;
  std::cout << "\nregions that differ:\n";
  Table table;
  table.add({"change", "A", "calls", "B", "calls"});
  for (const RegionDifference& region : diff.regions)
    table.add({regionChangeName(region.change), regionList(region.a), std::to_string(region.callsA), regionList(region.b),
               std::to_string(region.callsB)});
  table.print(std::cout);
}

void printComposites(const Module& loaded, const std::map<NodeId, std::string>& ops, const PartitionDiff& diff) {
  const std::vector<CompositeRow> rows = compositeRows(diff);
  if (rows.empty()) return;
  std::cout << "\ncomposites that differ:\n";
  Table table;
  table.add({"A", "B", "times", "e.g."});
  for (const CompositeRow& row : rows) {
    const std::vector<NodeId>& calls = row.groups.front()->calls;
    std::string example = callName(loaded, calls.front(), ops.at(calls.front()));
    if (calls.size() > 1) example += " and " + plural(calls.size() - 1, "more call");
    table.add({row.a, row.b, std::to_string(row.times), example});
  }
  table.print(std::cout);
}

std::string describeSide(const std::string& side, const NamedPartition& request, std::size_t regions, std::size_t composites) {
  return side + ": " + commaSeparated(request.targets) + " (" + request.pipeline + " flow): " + plural(regions, "region") + ", " +
         plural(composites, "composite");
}

}  // namespace

int runCompare(const Options& options) {
  const std::string pipeline = options.value("--pipeline").value_or("relay");
  const NamedPartition requestA{options.values("--target"), pipeline};
  const NamedPartition requestB{options.values("--against"), options.value("--against-pipeline").value_or(pipeline)};
  Result<Module> loaded = loadTypedModel(options);
  if (!loaded) return reportError(loaded.error());
  Result<PartitionedModel> a = partitionForTargets(options, *loaded, requestA);
  if (!a) return reportError(a.error());
  Result<PartitionedModel> b = partitionForTargets(options, *loaded, requestB);
  if (!b) return reportError(b.error());

  const PartitionDiff diff = comparePartitionings(*loaded, a->module, b->module);
  std::cout << describeSide("A", requestA, diff.regionsA, diff.compositesA) << "\n"
            << describeSide("B", requestB, diff.regionsB, diff.compositesB) << "\n";
  printOffload(*loaded, diff);
  printRegions(diff);
  printComposites(*loaded, loadedOpCalls(*loaded), diff);

  std::size_t offloadedOnlyInA = 0, offloadedOnlyInB = 0;
  for (const OffloadDifference& call : diff.offload) {
    offloadedOnlyInA += call.b == "host" && call.a != "folded";
    offloadedOnlyInB += call.a == "host" && call.b != "folded";
  }
  std::cout << "\nsummary: " << (diff.empty() ? "no differences; " : "") << diff.offload.size() << " of "
            << plural(diff.comparedCalls, "op call") << " placed differently (" << offloadedOnlyInA << " offloaded only in A, "
            << offloadedOnlyInB << " only in B), " << plural(diff.regions.size(), "region group") << " and "
            << plural(diff.composites.size(), "composite group") << " differ\n";
  return 0;
}

}  // namespace byoc::cli
