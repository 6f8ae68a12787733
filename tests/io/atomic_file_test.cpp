#include <unistd.h>

#include <filesystem>

#include "io_test_util.hpp"
#include "spgraph/io/atomic_file.hpp"

namespace spgraph::io {
namespace {

using test::TempDir;

bool dir_is_empty(const TempDir& tmp) { return std::filesystem::is_empty(tmp.dir()); }

TEST(AtomicFile, CommitRenamesOntoThePath) {
  TempDir tmp;
  const auto path = tmp.path("out.txt");
  {
    AtomicFile f(path);
    EXPECT_EQ(f.temp_path(), path + ".tmp." + std::to_string(::getpid()));
    f.write("hello ");
    std::fputs("world\n", f.file());
    EXPECT_FALSE(std::filesystem::exists(path));  // nothing under the final name yet
    f.commit();
  }
  EXPECT_EQ(test::read_file(path), "hello world\n");
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(tmp.dir()), {}), 1);
}

TEST(AtomicFile, NotCommittedLeavesNothingBehind) {
  TempDir tmp;
  {
    AtomicFile f(tmp.path("out.txt"));
    f.write("partial");
    EXPECT_TRUE(std::filesystem::exists(f.temp_path()));
  }
  EXPECT_TRUE(dir_is_empty(tmp));
}

TEST(AtomicFile, AnExceptionMidWriteKeepsTheOldFile) {
  TempDir tmp;
  const auto path = tmp.write("out.txt", "previous complete result\n");
  try {
    AtomicFile f(path);
    f.write("half of a new res");
    throw std::runtime_error("the run failed");
  } catch (const std::runtime_error&) {
  }
  EXPECT_EQ(test::read_file(path), "previous complete result\n");
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(tmp.dir()), {}), 1);
}

TEST(AtomicFile, UncreatableFileNamesPathAndErrno) {
  try {
    AtomicFile f("/nonexistent/dir/out.txt");
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/dir/out.txt: No such file or directory"), std::string::npos)
        << e.what();
  }
}

TEST(AtomicFile, FailedCommitThrowsAndCleansUp) {
  TempDir tmp;
  const auto target = tmp.path("a-directory");
  std::filesystem::create_directories(target + "/inside");  // a file cannot be renamed onto it
  {
    AtomicFile f(target);
    f.write("result");
    try {
      f.commit();
      FAIL() << "commit onto a directory succeeded";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("cannot rename " + f.temp_path() + " to " + target), std::string::npos)
          << e.what();
    }
  }
  EXPECT_FALSE(std::filesystem::exists(target + ".tmp." + std::to_string(::getpid())));
  EXPECT_TRUE(std::filesystem::is_directory(target + "/inside"));
}

}  // namespace
}  // namespace spgraph::io
