#pragma once
// A text graph read by the ranks of a job together, so that no rank holds the whole graph
// (issue 42): each rank parses its own byte range of the file, [size * r / P, size * (r+1) / P)
// of the text after the header, a line belonging to the rank where it starts, with the parsers
// load_graph uses; then every entry is sent (all-to-all) to the ranks that keep its row. Each rank
// ends with what read_csr_cache_rows gives for a .spgcsr: a matrix of the file's size holding
// its rows alone, every other row empty.
//
// The result is load_graph's, row for row: the same entries (a symmetric Matrix Market file's
// mirrors, an "Undirected graph" edge list's reverse links, repeats combined by
// LoadOptions::duplicates in the file's order), values or a pattern, the vertex count and id
// base. So are the errors: a malformed line is "FILE:LINE: reason" with the line's number in the
// whole file, and where the file has several problems, the one a single process would report
// (the first in the file's order, a count or a repeat judged over the whole file). Every rank
// throws it alike, as AgreedReadError, after the ranks have agreed on it; no rank is left waiting.
//
// A gzip-compressed file cannot be entered mid-stream: every rank inflates all of it (twice:
// once for its size, once to keep its share), holding about 1/P of the text at a time.
//
// What needs the whole file is not read this way (text_rows_refusal): --compact-ids and .abc
// label files, whose vertex numbers come from a dictionary of the whole file in order of first
// appearance; anything but a regular file. Those are read whole by every rank (load_graph).
//
// The collectives come from the caller (RankExchange; dist/text_exchange.hpp binds them to an MPI
// communicator), so io/ stays free of MPI.
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <utility>

#include "spgraph/error.hpp"
#include "spgraph/io/load_graph.hpp"

namespace spgraph::io {

// The few collectives a read by ranks needs. Every rank calls them in the same order.
class RankExchange {
 public:
  virtual ~RankExchange() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  // all[q * mine.size() + k] = rank q's mine[k]; every rank gives as many.
  virtual void allgather(std::span<const std::int64_t> mine, std::span<std::int64_t> all) = 0;
  // to[q] goes to rank q, which finds it at from[this rank] (one value each way a rank).
  virtual void alltoall(std::span<const std::int64_t> to, std::span<std::int64_t> from) = 0;
  // Bytes send[send_displs[q], + send_counts[q]) to rank q, received at recv[recv_displs[q], +
  // recv_counts[q]) from rank q.
  virtual void alltoallv(const void* send, std::span<const std::int64_t> send_counts,
                         std::span<const std::int64_t> send_displs, void* recv,
                         std::span<const std::int64_t> recv_counts, std::span<const std::int64_t> recv_displs) = 0;
  // The `why` of the lowest rank whose `why` is not empty, on every rank; "" when none is.
  virtual std::string first_failure(const std::string& why) = 0;
};

// A failure of a read by ranks that every rank throws alike, with the same message.
class AgreedReadError : public Error {
 public:
  using Error::Error;
};

// rows_of(n) gives this rank's rows [begin, end) once the vertex count n is known (as for
// read_csr_cache_rows); ranks may share rows (a grid row's ranks all keep its block's rows).
using RowsOf = std::function<std::pair<std::int64_t, std::int64_t>(std::int64_t)>;

// Why `path` must be read whole by every rank instead (see above), or "" where read_text_rows
// reads it: a Matrix Market or edge-list file (gzip-compressed or not), regular, without compact_ids.
// Not collective: the caller agrees on it (a file one rank cannot open is read_text_rows's error).
std::string text_rows_refusal(const std::string& path, const LoadOptions& options);

// Collective over `exchange`: this rank's rows of the graph load_graph(path, options) reads
// (file_links: the whole graph's entries). A file text_rows_refusal refuses is an AgreedReadError.
LoadedGraph read_text_rows(const std::string& path, const LoadOptions& options, const RowsOf& rows_of,
                           RankExchange& exchange);

// Collective: every link i -> j of the ranks' rows (as read_text_rows leaves them) also j -> i, a
// pair given both ways being one link of the larger weight, as symmetrize(Duplicates::Max) makes
// it from the whole graph (the apps' --undirected); file_links is then the mirrored count.
void mirror_rows(LoadedGraph& graph, const RowsOf& rows_of, RankExchange& exchange);

// Collective: every entry of the ranks' rows (as read_text_rows, read_csr_cache_rows and
// mirror_rows leave them, each row on one rank) sent to the rank keeper(row, col) names, which
// then holds the entries it was sent alone, in a matrix of the same size: the distributed
// backend's 2D blocks, so that a rank keeps 1/P of the graph. The rest of `graph` is kept.
using EntryKeeper = std::function<int(std::int64_t row, std::int64_t col)>;
void keep_entries(LoadedGraph& graph, const EntryKeeper& keeper, RankExchange& exchange);

}  // namespace spgraph::io
