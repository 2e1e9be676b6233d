#include "address_spaces.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

namespace loom::compiler::nvptx {

namespace {

enum SpirAddressSpace : unsigned { SpirConstant = 2, SpirGeneric = 4 };
enum NvptxAddressSpace : unsigned { NvptxGeneric = 0, NvptxGlobal = 1 };

unsigned nvptxAddressSpace(unsigned spir) {
  if (spir == SpirConstant) return NvptxGlobal;
  if (spir == SpirGeneric) return NvptxGeneric;
  return spir;
}

class AddressSpaceTypes final : public llvm::ValueMapTypeRemapper {
 public:
  llvm::Type* remapType(llvm::Type* type) override {
    if (auto found = mapped_.find(type); found != mapped_.end()) return found->second;
    llvm::SmallPtrSet<llvm::Type*, 8> seen;
    llvm::Type* result = changes(type, seen) ? rebuild(type) : type;
    mapped_[type] = result;
    return result;
  }

  bool changes(llvm::Type* type) {
    llvm::SmallPtrSet<llvm::Type*, 8> seen;
    return changes(type, seen);
  }

 private:
  // Whether `type` holds a pointer whose address space changes; `seen` breaks cycles of structs.
  static bool changes(llvm::Type* type, llvm::SmallPtrSetImpl<llvm::Type*>& seen) {
    if (auto* pointer = llvm::dyn_cast<llvm::PointerType>(type)) {
      if (nvptxAddressSpace(pointer->getAddressSpace()) != pointer->getAddressSpace()) return true;
      return !pointer->isOpaque() && changes(pointer->getNonOpaquePointerElementType(), seen);
    }
    if (!seen.insert(type).second) return false;
    for (llvm::Type* contained : type->subtypes())
      if (changes(contained, seen)) return true;
    return false;
  }

  llvm::Type* rebuild(llvm::Type* type) {
    llvm::LLVMContext& context = type->getContext();
    if (auto* pointer = llvm::dyn_cast<llvm::PointerType>(type)) {
      const unsigned space = nvptxAddressSpace(pointer->getAddressSpace());
      if (pointer->isOpaque()) return llvm::PointerType::get(context, space);
      return llvm::PointerType::get(remapType(pointer->getNonOpaquePointerElementType()), space);
    }
    if (auto* structure = llvm::dyn_cast<llvm::StructType>(type)) return rebuildStruct(structure);
    if (auto* array = llvm::dyn_cast<llvm::ArrayType>(type))
      return llvm::ArrayType::get(remapType(array->getElementType()), array->getNumElements());
    if (auto* vector = llvm::dyn_cast<llvm::VectorType>(type))
      return llvm::VectorType::get(remapType(vector->getElementType()), vector->getElementCount());
    if (auto* function = llvm::dyn_cast<llvm::FunctionType>(type))
      return llvm::FunctionType::get(remapType(function->getReturnType()), remapTypes(function->params()), function->isVarArg());
    return type;
  }

  llvm::Type* rebuildStruct(llvm::StructType* structure) {
    if (structure->isLiteral())
      return llvm::StructType::get(structure->getContext(), remapTypes(structure->elements()), structure->isPacked());
    // Named first, body second: the body may point back at the struct.
    llvm::StructType* result = llvm::StructType::create(structure->getContext(), structure->getName());
    mapped_[structure] = result;
    result->setBody(remapTypes(structure->elements()), structure->isPacked());
    return result;
  }

  std::vector<llvm::Type*> remapTypes(llvm::ArrayRef<llvm::Type*> types) {
    std::vector<llvm::Type*> result;
    for (llvm::Type* type : types) result.push_back(remapType(type));
    return result;
  }

  llvm::DenseMap<llvm::Type*, llvm::Type*> mapped_;
};

// byval, sret and the like name a type, which CloneFunctionInto copies unchanged.
llvm::AttributeList remapAttributeTypes(llvm::LLVMContext& context, llvm::AttributeList attributes,
                                        AddressSpaceTypes& types) {
  for (unsigned index : attributes.indexes())
    for (int kind = llvm::Attribute::FirstTypeAttr; kind <= llvm::Attribute::LastTypeAttr; ++kind) {
      const auto typed = static_cast<llvm::Attribute::AttrKind>(kind);
      if (llvm::Type* type = attributes.getAttributeAtIndex(index, typed).getValueAsType())
        attributes = attributes.replaceAttributeTypeAtIndex(context, index, typed, types.remapType(type));
    }
  return attributes;
}

class ModuleRemapper {
 public:
  explicit ModuleRemapper(llvm::Module& module) : module_(module) {}

  void run() {
    for (llvm::GlobalVariable& global : module_.globals()) oldGlobals_.push_back(&global);
    for (llvm::Function& function : module_) oldFunctions_.push_back(&function);
    for (llvm::GlobalVariable* global : oldGlobals_) declareGlobal(*global);
    for (llvm::Function* function : oldFunctions_) declareFunction(*function);
    for (llvm::GlobalVariable* global : oldGlobals_) defineGlobal(*global);
    for (llvm::Function* function : oldFunctions_) defineFunction(*function);
    eraseOldValues();
  }

 private:
  void declareGlobal(llvm::GlobalVariable& global) {
    const std::string name = global.getName().str();
    global.setName("");
    auto* replacement = new llvm::GlobalVariable(module_, types_.remapType(global.getValueType()), global.isConstant(),
                                                 global.getLinkage(), nullptr, name, nullptr, global.getThreadLocalMode(),
                                                 nvptxAddressSpace(global.getAddressSpace()));
    replacement->copyAttributesFrom(&global);
    map_[&global] = replacement;
  }

  void declareFunction(llvm::Function& function) {
    if (function.isDeclaration() && !types_.changes(function.getFunctionType())) return;  // maps to itself
    const std::string name = function.getName().str();
    function.setName("");
    auto* type = llvm::cast<llvm::FunctionType>(types_.remapType(function.getFunctionType()));
    llvm::Function* replacement = llvm::Function::Create(type, function.getLinkage(), function.getAddressSpace(), name, &module_);
    replacement->copyAttributesFrom(&function);
    replacement->setAttributes(remapAttributeTypes(module_.getContext(), function.getAttributes(), types_));
    map_[&function] = replacement;
    // An overloaded intrinsic's name spells its pointer types.
    if (replacement->isIntrinsic())
      if (auto renamed = llvm::Intrinsic::remangleIntrinsicFunction(replacement)) {
        map_[&function] = *renamed;
        replacement->eraseFromParent();
      }
  }

  void defineGlobal(llvm::GlobalVariable& global) {
    if (!global.hasInitializer()) return;
    auto* replacement = llvm::cast<llvm::GlobalVariable>(map_[&global]);
    replacement->setInitializer(llvm::MapValue(global.getInitializer(), map_, llvm::RF_None, &types_));
  }

  void defineFunction(llvm::Function& function) {
    if (function.isDeclaration()) return;
    auto* replacement = llvm::cast<llvm::Function>(map_[&function]);
    for (auto [from, to] : llvm::zip(function.args(), replacement->args())) {
      to.setName(from.getName());
      map_[&from] = &to;
    }
    llvm::SmallVector<llvm::ReturnInst*, 4> returns;
    llvm::CloneFunctionInto(replacement, &function, map_, llvm::CloneFunctionChangeType::GlobalChanges, returns, "", nullptr,
                            &types_);
    replacement->setAttributes(remapAttributeTypes(module_.getContext(), function.getAttributes(), types_));
    replaceSameSpaceCasts(*replacement);
  }

  // A cast from private to generic is within one NVPTX address space: a bitcast.
  static void replaceSameSpaceCasts(llvm::Function& function) {
    std::vector<llvm::AddrSpaceCastInst*> casts;
    for (llvm::BasicBlock& block : function)
      for (llvm::Instruction& instruction : block)
        if (auto* cast = llvm::dyn_cast<llvm::AddrSpaceCastInst>(&instruction);
            cast && cast->getSrcAddressSpace() == cast->getDestAddressSpace())
          casts.push_back(cast);
    for (llvm::AddrSpaceCastInst* cast : casts) {
      llvm::Value* same = cast->getOperand(0);
      if (same->getType() != cast->getType()) same = new llvm::BitCastInst(same, cast->getType(), "", cast);
      cast->replaceAllUsesWith(same);
      cast->eraseFromParent();
    }
  }

  void eraseOldValues() {
    std::vector<llvm::GlobalValue*> old;
    for (llvm::Function* function : oldFunctions_)
      if (llvm::Value* mapped = map_.lookup(function); mapped && mapped != function) old.push_back(function);
    old.insert(old.end(), oldGlobals_.begin(), oldGlobals_.end());
    for (llvm::GlobalValue* value : old) value->dropAllReferences();
    for (llvm::GlobalValue* value : old) {
      value->removeDeadConstantUsers();
      if (!value->use_empty()) value->replaceAllUsesWith(llvm::PoisonValue::get(value->getType()));
      value->eraseFromParent();
    }
  }

  llvm::Module& module_;
  AddressSpaceTypes types_;
  llvm::ValueToValueMapTy map_;
  std::vector<llvm::GlobalVariable*> oldGlobals_;
  std::vector<llvm::Function*> oldFunctions_;
};

}  // namespace

void remapAddressSpaces(llvm::Module& module) { ModuleRemapper(module).run(); }

}  // namespace loom::compiler::nvptx
