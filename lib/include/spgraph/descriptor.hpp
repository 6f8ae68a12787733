#pragma once
// GraphBLAS-style descriptor shared by both backends.
//
// Mask semantics (as GraphBLAS): C<M> = A op B writes only positions where the mask allows.
// A valued mask allows (i,j) when M(i,j) exists and is nonzero; a structural mask when it
// exists; complement inverts that. Without replace, entries of the old C that the mask does
// not allow are kept; with replace they are deleted. spgraph has no accumulator: allowed
// positions take the new result (absent if the product has no entry there).
//
// Dense vectors (gpu backend, and the host view of vectors) represent an absent entry by
// the add monoid's identity, so mxv/vxm results compare equal across backends.
namespace spgraph {

struct Descriptor {
  bool mask_structural = false;
  bool mask_complement = false;
  bool replace = false;
  bool transpose_a = false;
  bool transpose_b = false;
};

}  // namespace spgraph
