// libFuzzer harness for the .abc (mcl label pairs) reader through io::load_graph (input layout:
// input.hpp).
#include "input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  spgraph::fuzz::load_and_check(spgraph::fuzz::decode(data, size, spgraph::io::GraphFormat::Abc));
  return 0;
}
