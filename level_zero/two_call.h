#pragma once
// Level Zero's two-call idiom: with *pCount == 0 or no array, report how many items there are;
// otherwise fill up to *pCount of them and report how many were written.
#include <level_zero/ze_api.h>

#include <algorithm>
#include <cstring>
#include <string>

namespace loom::l0 {

template <typename Items, typename Out, typename Fill>
ze_result_t fillArray(const Items& items, uint32_t* pCount, Out* out, Fill&& fill) {
  const uint32_t available = static_cast<uint32_t>(std::size(items));
  if (*pCount == 0 || out == nullptr) {
    *pCount = available;
    return ZE_RESULT_SUCCESS;
  }
  *pCount = std::min(*pCount, available);
  for (uint32_t i = 0; i < *pCount; ++i) fill(out[i], items[i]);
  return ZE_RESULT_SUCCESS;
}

// The same for a string: its size with the terminating zero, or a truncated, terminated copy.
template <typename Size>
ze_result_t copyString(const std::string& text, Size* pSize, char* out) {
  if (out == nullptr || *pSize == 0) {
    *pSize = static_cast<Size>(text.size() + 1);
    return ZE_RESULT_SUCCESS;
  }
  const size_t copied = std::min(size_t(*pSize) - 1, text.size());
  std::memcpy(out, text.data(), copied);
  out[copied] = '\0';
  *pSize = static_cast<Size>(copied + 1);
  return ZE_RESULT_SUCCESS;
}

// A name into one of the API's fixed-size character arrays, truncated and terminated.
template <size_t Size>
void copyFixedString(char (&out)[Size], const char* text) {
  std::strncpy(out, text, Size - 1);
  out[Size - 1] = '\0';
}

}  // namespace loom::l0
