#pragma once
// The value types every host container and transform is explicitly instantiated for. bool is
// in the list for pattern-like boolean matrices (or-and semiring); its std::vector<bool> storage
// is why the transforms index values by position instead of taking pointers or references.
#include <cstdint>

#define SPGRAPH_FOR_EACH_VALUE_TYPE(X) X(float) X(double) X(std::int32_t) X(std::int64_t) X(bool)
