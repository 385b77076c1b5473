#include "ir/op.h"

#include <algorithm>
#include <mutex>

namespace byoc {

std::string_view fusionKindName(FusionKind kind) {
  switch (kind) {
    case FusionKind::Elementwise: return "elementwise";
    case FusionKind::Broadcast: return "broadcast";
    case FusionKind::Injective: return "injective";
    case FusionKind::CommReduce: return "comm-reduce";
    case FusionKind::OutElementwiseFusable: return "out-elementwise-fusable";
    case FusionKind::Tuple: return "tuple";
    case FusionKind::Opaque: return "opaque";
  }
  return "opaque";
}

const AttrField* OpDef::field(std::string_view fieldName) const {
  for (const AttrField& f : attrs)
    if (f.name == fieldName) return &f;
  return nullptr;
}

namespace {

/// Whether `value` has the kind of the schema's default `model`. A None default fixes no kind; an
/// integer admits a list of integers (split's indices_or_sections is a count or the indices); a
/// number admits an integer; a boolean admits an integer (TVM's text writes booleans as 0 and 1);
/// a list admits lists whose items fit the default's first item (any items if it is empty), and
/// one such item alone (`strides=2`, which the op's normaliser repeats). The recursion follows the
/// default's nesting, which the schema fixes, not the value's.
bool fitsKind(const AttrValue& model, const AttrValue& value) {
  if (model.isNone()) return true;
  if (model.isBool()) return value.isBool() || value.isInt();
  if (model.isInt()) return value.isInt() || value.asInts().has_value();
  if (model.isFloat()) return value.isFloat() || value.isInt();
  if (model.isString()) return value.isString();
  if (model.asList().empty()) return value.isList();
  const AttrValue& item = model.asList().front();
  if (!value.isList()) return !item.isList() && fitsKind(item, value);
  return std::all_of(value.asList().begin(), value.asList().end(), [&](const AttrValue& v) { return fitsKind(item, v); });
}

}  // namespace

OpRegistry& OpRegistry::global() {
  static OpRegistry registry;
  static std::once_flag once;
  std::call_once(once, [] { registerBuiltinOps(registry); });
  return registry;
}

Status OpRegistry::add(OpDef def) {
  if (ops_.count(def.name)) return makeError("op '" + def.name + "' is already registered");
  auto owned = std::make_unique<OpDef>(std::move(def));
  owned->handle = makeRef<const OpNode>(*owned);
  std::string name = owned->name;
  ops_.emplace(std::move(name), std::move(owned));
  return Status::ok();
}

const OpDef* OpRegistry::find(std::string_view name) const {
  auto it = ops_.find(name);
  return it == ops_.end() ? nullptr : it->second.get();
}

Op OpRegistry::get(std::string_view name) const {
  const OpDef* def = find(name);
  return def ? def->handle : Op();
}

std::vector<const OpDef*> OpRegistry::all() const {
  std::vector<const OpDef*> defs;
  defs.reserve(ops_.size());
  for (const auto& [name, def] : ops_) defs.push_back(def.get());
  return defs;
}

Result<Attrs> normalizeAttrs(const OpDef& def, const Attrs& given) {
  for (const auto& [name, value] : given.entries()) {
    if (def.field(name)) continue;
    std::string expected;
    for (const AttrField& f : def.attrs) expected += (expected.empty() ? "" : ", ") + f.name;
    return makeError(def.name + " has no attribute '" + name + "'" +
                     (expected.empty() ? "; it takes none" : "; expected one of: " + expected));
  }
  Attrs normalized;
  for (const AttrField& f : def.attrs) {
    const AttrValue* value = given.find(f.name);
    if (value && !fitsKind(f.defaultValue, *value))
      return makeError(def.name + ": attribute " + f.name + " must be " + attrKindName(f.defaultValue) + ", found " + value->str());
    normalized.set(f.name, value ? *value : f.defaultValue);
  }
  if (def.normalizer) return def.normalizer(std::move(normalized));
  return normalized;
}

Result<Call> makeOpCall(std::string_view name, std::vector<Expr> args, const Attrs& attrs, Origin origin) {
  const OpDef* def = OpRegistry::global().find(name);
  if (!def) return makeError("unknown op '" + std::string(name) + "'");
  if (!def->variadic && args.size() != def->inputs.size())
    return makeError(def->name + " expects " + std::to_string(def->inputs.size()) + " argument(s), got " +
                     std::to_string(args.size()));
  BYOC_ASSIGN_OR_RETURN(Attrs normalized, normalizeAttrs(*def, attrs));
  return CallNode::make(def->handle, std::move(args), std::move(normalized), std::move(origin));
}

}  // namespace byoc
