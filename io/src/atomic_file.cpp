#include "spgraph/io/atomic_file.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "spgraph/error.hpp"

namespace spgraph::io {
namespace {

std::string errno_text() { return std::strerror(errno); }

}  // namespace

AtomicFile::AtomicFile(std::string path)
    : path_(std::move(path)), temp_path_(path_ + ".tmp." + std::to_string(::getpid())) {
  file_ = std::fopen(temp_path_.c_str(), "wb");
  if (!file_) throw Error("cannot write " + path_ + ": " + errno_text() + " (creating " + temp_path_ + ")");
}

AtomicFile::~AtomicFile() {
  if (committed_) return;
  if (file_) std::fclose(file_);
  std::remove(temp_path_.c_str());
}

void AtomicFile::write(std::string_view bytes) {
  if (std::fwrite(bytes.data(), 1, bytes.size(), file_) != bytes.size())
    throw Error("cannot write " + temp_path_ + ": " + errno_text());
}

void AtomicFile::commit() {
  // fflush and fclose are where a full disk shows up for the last buffered bytes.
  const bool flushed = std::fflush(file_) == 0 && !std::ferror(file_);
  std::string why = flushed ? std::string() : errno_text();
  const bool closed = std::fclose(file_) == 0;
  file_ = nullptr;
  if (flushed && !closed) why = errno_text();
  if (!flushed || !closed) throw Error("cannot write " + temp_path_ + ": " + why);
  if (std::rename(temp_path_.c_str(), path_.c_str()) != 0)
    throw Error("cannot rename " + temp_path_ + " to " + path_ + ": " + errno_text());
  committed_ = true;
}

}  // namespace spgraph::io
