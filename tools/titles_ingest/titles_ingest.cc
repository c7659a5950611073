// The titles ingest (issue 25; docs/benchmarks.md, "The titles ingest"):
// 13.7 M keys shaped like Wikipedia article titles (about 18 bytes on
// average, words joined by '_', some with a year or a qualifier in
// parentheses), empty values, written in batches of 1,000 into a fresh DB
// with default options, either in the order they were made (random) or
// sorted, and made durable by a flush at the end.
//
// The titles are synthetic: a fixed seed makes the same ones on every run
// and machine, so both engines ingest identical data. Written against
// RocksDB's API; tools/titles_ingest/run.sh builds it as is against
// RocksDB and, with "rocksdb" replaced by "strata", against strata.
//
// Prints one line
//   titles <order>: <n> keys <bytes> key bytes <s> s <keys/s> keys/s; close
//   <s> s; verified <n> keys
// where the first time runs from DB::Open to the flush's return (making
// the titles is not timed), then reads the DB back and checks that it
// holds exactly the titles, in order. Exit status 1 when a call fails or
// the check does not hold, 2 on a bad command line.
//
// Usage: titles_ingest <db dir> <random|sorted> [count] [batch]
// (the db dir is destroyed first).

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <unordered_set>
#include <vector>

#include "rocksdb/db.h"
#include "rocksdb/options.h"
#include "rocksdb/write_batch.h"

namespace {

// The titles, one after another in one buffer.
struct Titles {
  std::string bytes;
  std::vector<uint64_t> offsets;  // size() + 1 entries
  size_t size() const { return offsets.size() - 1; }
  rocksdb::Slice operator[](size_t i) const {
    return rocksdb::Slice(bytes.data() + offsets[i],
                          offsets[i + 1] - offsets[i]);
  }
};

const char* const kSyllables[] = {
    "an",   "ber", "ca",   "de",  "el",   "for",   "ga", "hi",  "in",
    "jo",   "ka",  "li",   "ma",  "ne",   "or",    "pa", "qui", "ri",
    "sa",   "ta",  "um",   "va",  "wi",   "xe",    "yo", "za",  "ton",
    "ler",  "ing", "son",  "vil", "berg", "stein", "ia", "ous", "ric",
    "land", "sto", "ford", "ham", "mont", "ro",    "lu", "ce",  "do"};
const char* const kQualifiers[] = {
    "_(film)",       "_(album)",     "_(band)",       "_(song)",
    "_(novel)",      "_(river)",     "_(company)",    "_(disambiguation)",
    "_(footballer)", "_(TV_series)", "_(politician)", "_(village)"};

// Pseudo-words of one to three syllables, the first letter upper case.
std::vector<std::string> MakeWords(std::mt19937_64* rand, size_t n) {
  const size_t syllables = sizeof(kSyllables) / sizeof(kSyllables[0]);
  std::vector<std::string> words;
  words.reserve(n);
  for (size_t i = 0; i < n; i++) {
    std::string w;
    const uint64_t shape = (*rand)() % 20;
    const int parts = shape < 3 ? 1 : shape < 12 ? 2 : 3;
    for (int p = 0; p < parts; p++) w += kSyllables[(*rand)() % syllables];
    w[0] = static_cast<char>(w[0] - 'a' + 'A');
    words.push_back(std::move(w));
  }
  return words;
}

// One title: one to four words, common words far more often than rare
// ones, so titles share prefixes as real ones do.
void AppendTitle(std::mt19937_64* rand, const std::vector<std::string>& words,
                 std::string* out) {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const double shape = unit(*rand);
  const int n = shape < 0.22 ? 1 : shape < 0.70 ? 2 : shape < 0.90 ? 3 : 4;
  if (unit(*rand) < 0.02) out->append("List_of_");
  for (int i = 0; i < n; i++) {
    if (i > 0) out->push_back('_');
    const double u = unit(*rand);
    out->append(words[static_cast<size_t>(u * u * words.size())]);
  }
  const double tail = unit(*rand);
  if (tail < 0.10) {
    out->append(kQualifiers[(*rand)() %
                            (sizeof(kQualifiers) / sizeof(kQualifiers[0]))]);
  } else if (tail < 0.15) {
    out->append("_" + std::to_string(1800 + (*rand)() % 225));
  }
}

// `count` distinct titles in the order made: a title equal to an earlier
// one (or whose hash is) is made again.
Titles MakeTitles(size_t count) {
  std::mt19937_64 rand(20261128);
  const std::vector<std::string> words = MakeWords(&rand, 1 << 18);
  std::unordered_set<size_t> seen;
  seen.reserve(count + count / 2);
  Titles titles;
  titles.offsets.reserve(count + 1);
  titles.offsets.push_back(0);
  std::string title;
  while (titles.size() < count) {
    title.clear();
    AppendTitle(&rand, words, &title);
    if (!seen.insert(std::hash<std::string>()(title)).second) continue;
    titles.bytes.append(title);
    titles.offsets.push_back(titles.bytes.size());
  }
  return titles;
}

Titles Sorted(const Titles& titles) {
  // By the first eight bytes as a number first (titles hold no NUL, so
  // zero padding sorts a shorter title first, as bytewise order does),
  // which settles most comparisons without touching the titles.
  struct Rank {
    uint64_t prefix;
    uint32_t index;
  };
  std::vector<Rank> ranks(titles.size());
  for (uint32_t i = 0; i < ranks.size(); i++) {
    const rocksdb::Slice t = titles[i];
    uint64_t prefix = 0;
    for (size_t j = 0; j < 8; j++) {
      prefix = (prefix << 8) |
               (j < t.size() ? static_cast<unsigned char>(t[j]) : 0u);
    }
    ranks[i] = {prefix, i};
  }
  std::sort(ranks.begin(), ranks.end(), [&](const Rank& a, const Rank& b) {
    if (a.prefix != b.prefix) return a.prefix < b.prefix;
    return titles[a.index].compare(titles[b.index]) < 0;
  });
  std::vector<uint32_t> order(titles.size());
  for (size_t i = 0; i < ranks.size(); i++) order[i] = ranks[i].index;
  Titles sorted;
  sorted.bytes.reserve(titles.bytes.size());
  sorted.offsets.push_back(0);
  for (uint32_t i : order) {
    sorted.bytes.append(titles[i].data(), titles[i].size());
    sorted.offsets.push_back(sorted.bytes.size());
  }
  return sorted;
}

bool Check(const rocksdb::Status& s, const char* what) {
  if (!s.ok()) std::fprintf(stderr, "%s: %s\n", what, s.ToString().c_str());
  return s.ok();
}

double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
      .count();
}

// Every title once, in order, and nothing else.
bool Verify(rocksdb::DB* db, const Titles& sorted) {
  std::unique_ptr<rocksdb::Iterator> it(
      db->NewIterator(rocksdb::ReadOptions()));
  size_t i = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next(), i++) {
    if (i >= sorted.size() || it->key() != sorted[i] || !it->value().empty()) {
      std::fprintf(stderr, "verify: entry %zu is not the title expected\n", i);
      return false;
    }
  }
  if (!Check(it->status(), "verify")) return false;
  if (i != sorted.size()) {
    std::fprintf(stderr, "verify: %zu keys, %zu expected\n", i, sorted.size());
    return false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3 || (std::strcmp(argv[2], "random") != 0 &&
                   std::strcmp(argv[2], "sorted") != 0)) {
    std::fprintf(stderr,
                 "usage: titles_ingest <db> <random|sorted> [count] "
                 "[batch]\n");
    return 2;
  }
  const std::string path = argv[1];
  const bool sorted_order = std::strcmp(argv[2], "sorted") == 0;
  const size_t count =
      argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 13700000;
  const size_t batch_size =
      argc > 4 ? std::strtoull(argv[4], nullptr, 10) : 1000;
  if (count == 0 || count > UINT32_MAX / 2 || batch_size == 0) {
    std::fprintf(stderr, "titles_ingest: bad count or batch size\n");
    return 2;
  }

  const Titles made = MakeTitles(count);
  const Titles sorted = Sorted(made);
  const Titles& input = sorted_order ? sorted : made;

  rocksdb::Options options;
  options.create_if_missing = true;
  rocksdb::DestroyDB(path, options);
  const auto start = std::chrono::steady_clock::now();
  rocksdb::DB* raw = nullptr;
  if (!Check(rocksdb::DB::Open(options, path, &raw), "open")) return 1;
  std::unique_ptr<rocksdb::DB> db(raw);
  rocksdb::WriteBatch batch;
  for (size_t i = 0; i < input.size(); i++) {
    if (!Check(batch.Put(input[i], rocksdb::Slice()), "put")) return 1;
    if (batch.Count() == static_cast<int>(batch_size) ||
        i + 1 == input.size()) {
      if (!Check(db->Write(rocksdb::WriteOptions(), &batch), "write")) {
        return 1;
      }
      batch.Clear();
    }
  }
  if (!Check(db->Flush(rocksdb::FlushOptions()), "flush")) return 1;
  const double seconds = SecondsSince(start);
  const auto close_start = std::chrono::steady_clock::now();
  if (!Check(db->Close(), "close")) return 1;
  db.reset();
  const double close_seconds = SecondsSince(close_start);

  if (!Check(rocksdb::DB::Open(options, path, &raw), "reopen")) return 1;
  db.reset(raw);
  if (!Verify(db.get(), sorted)) return 1;
  std::printf(
      "titles %s: %zu keys %zu key bytes %.2f s %.0f keys/s; close %.2f s; "
      "verified %zu keys\n",
      sorted_order ? "sorted" : "random", input.size(), input.bytes.size(),
      seconds, input.size() / seconds, close_seconds, sorted.size());
  return 0;
}
