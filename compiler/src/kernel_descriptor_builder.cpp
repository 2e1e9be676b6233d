#include "kernel_descriptor_builder.h"

#include <cstring>

#include "builtin_library.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Metadata.h"
#include "llvm/Support/MathExtras.h"

namespace loom::compiler {

namespace {

enum SpirAddressSpace : unsigned { Private = 0, Global = 1, Constant = 2, Local = 3, Generic = 4 };

std::string metadataString(const llvm::Function& kernel, const char* kind, unsigned index) {
  const llvm::MDNode* node = kernel.getMetadata(kind);
  if (!node || index >= node->getNumOperands()) return {};
  if (const auto* text = llvm::dyn_cast_or_null<llvm::MDString>(node->getOperand(index))) return text->getString().str();
  return {};
}

std::array<uint32_t, 3> metadataTriple(const llvm::Function& kernel, const char* kind) {
  std::array<uint32_t, 3> values{0, 0, 0};
  const llvm::MDNode* node = kernel.getMetadata(kind);
  if (!node) return values;
  for (unsigned i = 0; i < 3 && i < node->getNumOperands(); ++i)
    if (auto* constant = llvm::mdconst::dyn_extract_or_null<llvm::ConstantInt>(node->getOperand(i)))
      values[i] = static_cast<uint32_t>(constant->getZExtValue());
  return values;
}

bool isOpaqueOpenClType(llvm::Type* type, llvm::StringRef prefix) {
  auto* pointer = llvm::dyn_cast<llvm::PointerType>(type);
  if (!pointer || pointer->isOpaque()) return false;
  auto* structure = llvm::dyn_cast<llvm::StructType>(pointer->getNonOpaquePointerElementType());
  return structure && structure->hasName() && structure->getName().startswith(prefix);
}

// The name of the opaque type a typed pointer points to ("opencl.image2d_ro_t").
llvm::StringRef opaqueTypeName(llvm::Type* type) {
  return llvm::cast<llvm::StructType>(llvm::cast<llvm::PointerType>(type)->getNonOpaquePointerElementType())->getName();
}

// Images and samplers take 8 bytes: an ImageDescriptor's address or the sampler's bits
// (image_abi.h). Without the producer's metadata, the opaque type names the OpenCL C type and
// the image's access ("opencl.image2d_ro_t": image2d_t, read_only).
KernelArgument describeImageOrSampler(KernelArgument described, llvm::Type* type) {
  const llvm::StringRef name = opaqueTypeName(type);
  described.size = described.alignment = 8;
  if (name.startswith("opencl.sampler")) {
    described.kind = ArgumentKind::Sampler;
    if (described.typeName.empty()) described.typeName = "sampler_t";
    return described;
  }
  described.kind = ArgumentKind::Image;
  described.addressQualifier = AddressQualifier::Global;  // as clang's kernel_arg_addr_space says of images
  const llvm::StringRef image = name.drop_front(std::strlen("opencl."));
  const llvm::StringRef access = image.endswith("_ro_t") ? "_ro_t" : image.endswith("_wo_t") ? "_wo_t" : image.endswith("_rw_t") ? "_rw_t" : "";
  if (described.typeName.empty()) described.typeName = (image.drop_back(access.size()) + (access.empty() ? "" : "_t")).str();
  if (described.accessQualifier == AccessQualifier::None)
    described.accessQualifier = access == "_wo_t" ? AccessQualifier::WriteOnly
                                : access == "_rw_t" ? AccessQualifier::ReadWrite
                                                    : AccessQualifier::ReadOnly;
  return described;
}

// `what` takes `bytes`: the argument itself, or the arguments up to and including it.
llvm::Error tooLarge(const llvm::Argument& argument, const char* what, uint64_t bytes) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), "kernel '%s' argument %u: %s %llu bytes, more than the %u Loom supports",
                                 argument.getParent()->getName().str().c_str(), argument.getArgNo(), what,
                                 (unsigned long long)bytes, kMaxArgumentBufferSize);
}

llvm::Expected<KernelArgument> describeArgument(const llvm::Argument& argument, const llvm::DataLayout& layout) {
  const llvm::Function& kernel = *argument.getParent();
  const unsigned index = argument.getArgNo();
  KernelArgument described;
  described.name = metadataString(kernel, "kernel_arg_name", index);
  if (described.name.empty() && argument.hasName()) described.name = argument.getName().str();
  described.typeName = metadataString(kernel, "kernel_arg_type", index);
  const std::string qualifiers = metadataString(kernel, "kernel_arg_type_qual", index);
  if (qualifiers.find("const") != std::string::npos) described.typeQualifiers |= TypeConst;
  if (qualifiers.find("restrict") != std::string::npos) described.typeQualifiers |= TypeRestrict;
  if (qualifiers.find("volatile") != std::string::npos) described.typeQualifiers |= TypeVolatile;
  const std::string access = metadataString(kernel, "kernel_arg_access_qual", index);
  described.accessQualifier = access == "read_only"    ? AccessQualifier::ReadOnly
                              : access == "write_only" ? AccessQualifier::WriteOnly
                              : access == "read_write" ? AccessQualifier::ReadWrite
                                                       : AccessQualifier::None;
  llvm::Type* type = argument.getType();
  if (isOpaqueOpenClType(type, "opencl.image") || isOpaqueOpenClType(type, "opencl.sampler")) return describeImageOrSampler(described, type);
  if (argument.hasByValAttr()) {
    llvm::Type* value = argument.getParamByValType();
    described.kind = ArgumentKind::Value;
    const uint64_t size = layout.getTypeAllocSize(value);
    if (size > kMaxArgumentBufferSize) return tooLarge(argument, "it takes", size);
    described.size = static_cast<uint32_t>(size);
    described.alignment = static_cast<uint32_t>(std::max<uint64_t>(layout.getABITypeAlign(value).value(), 8));
    return described;
  }
  if (auto* pointer = llvm::dyn_cast<llvm::PointerType>(type)) {
    described.size = described.alignment = 8;
    switch (pointer->getAddressSpace()) {
      case Local: described.kind = ArgumentKind::LocalPointer, described.addressQualifier = AddressQualifier::Local; break;
      case Constant:
        described.kind = ArgumentKind::ConstantPointer, described.addressQualifier = AddressQualifier::Constant;
        break;
      default: described.kind = ArgumentKind::GlobalPointer, described.addressQualifier = AddressQualifier::Global; break;
    }
    return described;
  }
  described.kind = ArgumentKind::Value;
  const uint64_t size = layout.getTypeAllocSize(type);
  if (size > kMaxArgumentBufferSize) return tooLarge(argument, "it takes", size);
  described.size = static_cast<uint32_t>(size);
  described.alignment = static_cast<uint32_t>(layout.getABITypeAlign(type).value());
  return described;
}

std::string sourceAttributes(const KernelDescriptor& descriptor) {
  std::string attributes;
  auto add = [&](const std::string& attribute) { attributes += (attributes.empty() ? "" : " ") + attribute; };
  auto triple = [](const std::array<uint32_t, 3>& v) {
    return std::to_string(v[0]) + "," + std::to_string(v[1]) + "," + std::to_string(v[2]);
  };
  if (descriptor.requiredWorkGroupSize[0]) add("reqd_work_group_size(" + triple(descriptor.requiredWorkGroupSize) + ")");
  if (descriptor.workGroupSizeHint[0]) add("work_group_size_hint(" + triple(descriptor.workGroupSizeHint) + ")");
  if (!descriptor.vectorTypeHint.empty()) add("vec_type_hint(" + descriptor.vectorTypeHint + ")");
  if (descriptor.requiredSubGroupSize) add("intel_reqd_sub_group_size(" + std::to_string(descriptor.requiredSubGroupSize) + ")");
  return attributes;
}

// The hint's type name; integers are signed unless `withSignedness` and the metadata's second
// operand (1 for signed types) says otherwise.
std::string vectorTypeHint(const llvm::Function& kernel, bool withSignedness) {
  const llvm::MDNode* node = kernel.getMetadata("vec_type_hint");
  if (!node || node->getNumOperands() == 0) return {};
  auto* value = llvm::mdconst::dyn_extract_or_null<llvm::Constant>(node->getOperand(0));
  if (!value) return {};
  llvm::Type* type = value->getType();
  unsigned lanes = 1;
  if (auto* vector = llvm::dyn_cast<llvm::FixedVectorType>(type)) lanes = vector->getNumElements(), type = vector->getElementType();
  std::string scalar = type->isFloatTy() ? "float" : type->isDoubleTy() ? "double" : type->isHalfTy() ? "half"
                       : type->isIntegerTy(8) ? "char" : type->isIntegerTy(16) ? "short" : type->isIntegerTy(64) ? "long" : "int";
  auto* isSigned = node->getNumOperands() > 1 ? llvm::mdconst::dyn_extract_or_null<llvm::ConstantInt>(node->getOperand(1)) : nullptr;
  if (withSignedness && type->isIntegerTy() && isSigned && isSigned->isZero()) scalar = "u" + scalar;
  return lanes == 1 ? scalar : scalar + std::to_string(lanes);
}

}  // namespace

std::string sourceVectorTypeHint(const llvm::Function& kernel) { return vectorTypeHint(kernel, true); }

std::string unsupportedImageArgument(const llvm::Function& kernel) {
  for (const llvm::Argument& argument : kernel.args()) {
    if (!isOpaqueOpenClType(argument.getType(), "opencl.image")) continue;
    const llvm::StringRef name = opaqueTypeName(argument.getType());
    if (name.contains("_msaa"))
      return "argument " + std::to_string(argument.getArgNo()) + " is a multisampled image (" + name.str() +
             "), which Loom does not support";
  }
  return {};
}

bool isKernel(const llvm::Function& function) {
  return !function.isDeclaration() && function.getCallingConv() == llvm::CallingConv::SPIR_KERNEL;
}

llvm::Expected<KernelDescriptor> describeKernel(const llvm::Function& kernel, const std::string& sourceTypeHint) {
  const llvm::DataLayout& layout = kernel.getParent()->getDataLayout();
  KernelDescriptor descriptor;
  descriptor.name = kernel.getName().str();
  uint64_t offset = 0;
  for (const llvm::Argument& argument : kernel.args()) {
    auto described = describeArgument(argument, layout);
    if (!described) return described.takeError();
    offset = llvm::alignTo(offset, described->alignment);
    const uint64_t end = offset + described->size;
    if (end > kMaxArgumentBufferSize) return tooLarge(argument, "the arguments up to it take", end);
    described->offset = static_cast<uint32_t>(offset);
    offset += described->size;
    descriptor.arguments.push_back(std::move(*described));
  }
  descriptor.argumentBufferSize = static_cast<uint32_t>(llvm::alignTo(offset, 8));
  descriptor.requiredWorkGroupSize = metadataTriple(kernel, "reqd_work_group_size");
  descriptor.workGroupSizeHint = metadataTriple(kernel, "work_group_size_hint");
  descriptor.requiredSubGroupSize = metadataTriple(kernel, "intel_reqd_sub_group_size")[0];
  descriptor.vectorTypeHint = sourceTypeHint.empty() ? vectorTypeHint(kernel, false) : sourceTypeHint;
  descriptor.attributes = sourceAttributes(descriptor);
  if (const std::string problem = checkKernelDescriptor(descriptor); !problem.empty())
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s", problem.c_str());
  return descriptor;
}

void describeProgramSymbols(const llvm::Module& module, ProgramInfo& info) {
  const llvm::DataLayout& layout = module.getDataLayout();
  for (const llvm::GlobalVariable& global : module.globals()) {
    if (global.getAddressSpace() != Global || global.isDeclaration()) continue;
    info.globalVariableTotalSize += layout.getTypeAllocSize(global.getValueType());
    if (global.hasLocalLinkage() || !global.hasName()) continue;
    info.globals.push_back({global.getName().str(), layout.getTypeAllocSize(global.getValueType())});
  }
  for (const llvm::Function& function : module) {
    if (isKernel(function) || function.isIntrinsic() || function.hasLocalLinkage()) continue;
    if (!function.isDeclaration()) {
      info.exportedFunctions.push_back(function.getName().str());
      continue;
    }
    // Declarations with SPIR-V Import linkage.
    if (!isBuiltinName(function.getName())) info.importedFunctions.push_back(function.getName().str());
  }
}

}  // namespace loom::compiler
