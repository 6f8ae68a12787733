#include "spgraph/io/atomic_file.hpp"

#include <fcntl.h>
#include <sys/mman.h>
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
  file_ = std::fopen(temp_path_.c_str(), "w+b");  // read and write: a shared writable mapping needs both
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

void AtomicFile::write_unbuffered(std::string_view bytes) {
  if (std::fflush(file_) != 0) throw Error("cannot write " + temp_path_ + ": " + errno_text());
  const int fd = ::fileno(file_);
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw Error("cannot write " + temp_path_ + ": " + (n < 0 ? errno_text() : "no progress"));
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
}

AtomicFile::Mapped::Mapped(Mapped&& m) noexcept
    : base_(std::exchange(m.base_, nullptr)), length_(std::exchange(m.length_, 0)), data_(std::exchange(m.data_, nullptr)) {}

AtomicFile::Mapped& AtomicFile::Mapped::operator=(Mapped&& m) noexcept {
  std::swap(base_, m.base_);
  std::swap(length_, m.length_);
  std::swap(data_, m.data_);
  return *this;
}

AtomicFile::Mapped::~Mapped() {
  if (base_) ::munmap(base_, length_);
}

AtomicFile::Mapped AtomicFile::append_mapped(std::size_t capacity) {
  if (capacity == 0 || std::fflush(file_) != 0) return {};
  const int fd = ::fileno(file_);
  const off_t at = ::lseek(fd, 0, SEEK_CUR);
  // fallocate, not ftruncate: a hole would get its blocks at the first store into it.
  if (at < 0 || ::fallocate(fd, 0, at, static_cast<off_t>(capacity)) != 0) return {};
  const off_t base = at / ::sysconf(_SC_PAGESIZE) * ::sysconf(_SC_PAGESIZE);
  Mapped m;
  m.length_ = static_cast<std::size_t>(at - base) + capacity;
  void* p = ::mmap(nullptr, m.length_, PROT_READ | PROT_WRITE, MAP_SHARED, fd, base);
  if (p == MAP_FAILED) {
    if (::ftruncate(fd, at) != 0) throw Error("cannot write " + temp_path_ + ": " + errno_text());
    return {};
  }
  m.base_ = p;
  m.data_ = static_cast<char*>(p) + (at - base);
  return m;
}

void AtomicFile::end_mapped(Mapped& m, std::size_t used) {
  const off_t end = ::lseek(::fileno(file_), 0, SEEK_CUR) + static_cast<off_t>(used);
  m = {};
  if (::ftruncate(::fileno(file_), end) != 0 || ::lseek(::fileno(file_), end, SEEK_SET) != end)
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
