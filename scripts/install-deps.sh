#!/usr/bin/env bash
# Installs the Debian 12 packages spgraph builds against, only those missing. The CUDA toolkit
# (nvcc, cuSPARSE, CUB, NCCL) does not come from Debian: where it is installed the GPU backend is
# built, elsewhere the CPU backend alone.
set -euo pipefail
packages=(cmake ninja-build g++ libgraphblas-dev libboost-graph-dev libgtest-dev libcli11-dev nlohmann-json3-dev zlib1g-dev mcl libxxhash-dev python3-matplotlib clang libclang-rt-14-dev libomp-dev libisal-dev libopenmpi-dev openmpi-bin)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "spgraph: installing ${missing[*]}"
  sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
if ! command -v nvcc >/dev/null && [ -x /usr/local/cuda/bin/nvcc ]; then
  echo "spgraph: nvcc is not on PATH; add /usr/local/cuda/bin to PATH" >&2
fi
command -v nvcc >/dev/null || [ -x /usr/local/cuda/bin/nvcc ] ||
  echo "spgraph: no CUDA toolkit (nvcc) found: building the CPU backend only (SuiteSparse:GraphBLAS)" >&2
# The Python package's build and test tools (python/requirements-dev.txt), from PyPI, where this
# python3 takes pip installs (Debian's own python3 wants a venv: PEP 668); without them the Python
# tests are left out and CMake says so.
py_req=$(cd "$(dirname "$0")/.." && pwd)/python/requirements-dev.txt
if command -v python3 >/dev/null && ! python3 -c "import scikit_build_core, nanobind, numpy, scipy, networkx, pytest" 2>/dev/null; then
  python3 -m pip install --quiet -r "$py_req" ||
    echo "spgraph: could not pip install $py_req: the Python package's tests will not run" >&2
fi
