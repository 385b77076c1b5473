#include "ir/module.h"


namespace byoc {

std::optional<SourceLocation> Provenance::locate(const Origin& origin) const {
  for (NodeId id : origin.ids()) {
    auto it = locations.find(id);
    if (it != locations.end()) return it->second;
  }
  return std::nullopt;
}

Function Module::find(std::string_view name) const {
  auto it = index_.find(std::string(name));
  return it == index_.end() ? Function() : functions_[it->second].second;
}

void Module::set(std::string name, Function function) {
  auto it = index_.find(name);
  if (it != index_.end()) {
    functions_[it->second].second = std::move(function);
    return;
  }
  index_.emplace(name, functions_.size());
  functions_.emplace_back(std::move(name), std::move(function));
}

void Module::erase(std::string_view name) {
  auto it = index_.find(std::string(name));
  if (it == index_.end()) return;
  functions_.erase(functions_.begin() + static_cast<std::ptrdiff_t>(it->second));
  index_.clear();
  for (std::size_t i = 0; i < functions_.size(); ++i) index_.emplace(functions_[i].first, i);
}

std::optional<SourceLocation> Module::locate(const Expr& expr) const {
  if (!provenance_ || !expr) return std::nullopt;
  return provenance_->locate(expr->origin());
}

bool Module::sameNodes(const Module& other) const {
  if (functions_.size() != other.functions_.size() || !(attrs_ == other.attrs_)) return false;
  for (std::size_t i = 0; i < functions_.size(); ++i) {
    if (functions_[i].first != other.functions_[i].first) return false;
    if (!(functions_[i].second == other.functions_[i].second)) return false;
  }
  return true;
}

}  // namespace byoc
