/// \file
/// The pass registry and option checking.

#include "pass/registry.h"

#include "pass/infer_type.h"

namespace byoc {

const PassRegistry& PassRegistry::core() {
  static const PassRegistry registry = [] {
    PassRegistry built;
    Status added = built.add(inferTypeRegistration());
    BYOC_CHECK(added.isOk(), "InferType registers once");
    return built;
  }();
  return registry;
}

Status PassRegistry::add(PassRegistration registration) {
  std::string name = registration.info.name;
  if (passes_.count(name)) return makeError("a pass named '" + name + "' is already registered");
  passes_.emplace(std::move(name), std::move(registration));
  return Status::ok();
}

const PassRegistration* PassRegistry::find(std::string_view name) const {
  auto it = passes_.find(name);
  return it == passes_.end() ? nullptr : &it->second;
}

std::vector<const PassInfo*> PassRegistry::all() const {
  std::vector<const PassInfo*> infos;
  infos.reserve(passes_.size());
  for (const auto& [name, registration] : passes_) infos.push_back(&registration.info);
  return infos;
}

Result<PassPtr> PassRegistry::create(std::string_view name, const Attrs& options) const {
  const PassRegistration* registration = find(name);
  if (!registration) return makeError("unknown pass '" + std::string(name) + "'");
  BYOC_ASSIGN_OR_RETURN(Attrs complete, completePassOptions(registration->info, options));
  return registration->factory(complete);
}

Result<AttrValue> checkPassOption(const PassInfo& pass, const PassOption& option, const AttrValue& value) {
  const AttrValue& model = option.defaultValue;
  bool fits = (model.isBool() && value.isBool()) || (model.isInt() && value.isInt()) ||
              (model.isFloat() && (value.isFloat() || value.isInt())) || (model.isString() && value.isString());
  if (!fits)
    return makeError("option '" + option.name + "' of " + pass.name + " expects " + attrKindName(model) + ", found " +
                     value.str());
  return model.isFloat() ? AttrValue(value.asFloat()) : value;
}

Result<Attrs> completePassOptions(const PassInfo& pass, const Attrs& options) {
  for (const auto& [name, value] : options.entries()) {
    bool known = false;
    for (const PassOption& option : pass.options) known = known || option.name == name;
    if (known) continue;
    std::string expected;
    for (const PassOption& option : pass.options) expected += (expected.empty() ? "" : ", ") + option.name;
    return makeError("unknown option '" + name + "' of " + pass.name +
                     (expected.empty() ? std::string(", which takes no options") : " (expected " + expected + ")"));
  }
  Attrs complete;
  for (const PassOption& option : pass.options) {
    const AttrValue* given = options.find(option.name);
    if (!given) {
      complete.set(option.name, option.defaultValue);
      continue;
    }
    BYOC_ASSIGN_OR_RETURN(AttrValue checked, checkPassOption(pass, option, *given));
    complete.set(option.name, std::move(checked));
  }
  return complete;
}

}  // namespace byoc
