#pragma once
// An output file that appears complete or not at all: everything is written to
// "<path>.tmp.<pid>", which commit() renames onto <path>. If the object is destroyed without
// commit() (an exception, a failed run), the temporary file is removed, so a partial output
// never sits under the name of a finished one.
//
//   AtomicFile out(path);
//   std::fprintf(out.file(), ...);   // or out.write(text)
//   out.commit();                    // reports a full disk or any other write error
//
// Large outputs can skip stdio: write_unbuffered() hands a buffer to write(2), and
// append_mapped() maps the next bytes of the file so that several threads can copy into it.
#include <cstddef>
#include <cstdio>
#include <string>
#include <string_view>

namespace spgraph::io {

class AtomicFile {
 public:
  // Creates the temporary file; spgraph::Error naming it and the errno text on failure.
  explicit AtomicFile(std::string path);
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  // The temporary file, open for binary writing (valid until commit()).
  std::FILE* file() { return file_; }
  void write(std::string_view bytes);  // throws spgraph::Error on a short write
  // The same through write(2), without stdio's copy (what stdio holds is flushed first).
  void write_unbuffered(std::string_view bytes);

  // Room for up to `capacity` more bytes, mapped shared for writing so that any thread may
  // copy into data(); end_mapped(m, used) then ends the file after the first `used` of them.
  // The space is reserved first (fallocate), so a full disk cannot become a SIGBUS on a store.
  // Where it cannot be reserved or mapped (a full disk, a file system without fallocate or
  // mmap), data() is null and nothing changed: write the bytes instead, which reports the error.
  class Mapped {
   public:
    Mapped() = default;
    Mapped(Mapped&& m) noexcept;
    Mapped& operator=(Mapped&& m) noexcept;
    ~Mapped();  // unmaps; without end_mapped() the file keeps the whole capacity
    char* data() const { return data_; }

   private:
    friend class AtomicFile;
    void* base_ = nullptr;  // page-aligned start of the mapping
    std::size_t length_ = 0;
    char* data_ = nullptr;
  };
  Mapped append_mapped(std::size_t capacity);
  void end_mapped(Mapped& m, std::size_t used);

  // Flushes, closes and renames onto path(); spgraph::Error on any failure, after which
  // the temporary file is removed.
  void commit();

  const std::string& path() const { return path_; }
  const std::string& temp_path() const { return temp_path_; }

 private:
  std::string path_;
  std::string temp_path_;
  std::FILE* file_ = nullptr;
  bool committed_ = false;
};

}  // namespace spgraph::io
