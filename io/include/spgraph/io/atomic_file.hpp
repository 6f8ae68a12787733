#pragma once
// An output file that appears complete or not at all: everything is written to
// "<path>.tmp.<pid>", which commit() renames onto <path>. If the object is destroyed without
// commit() (an exception, a failed run), the temporary file is removed, so a partial output
// never sits under the name of a finished one.
//
//   AtomicFile out(path);
//   std::fprintf(out.file(), ...);   // or out.write(text)
//   out.commit();                    // reports a full disk or any other write error
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
