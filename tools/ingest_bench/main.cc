// ingest_bench: bulk loading through SstFileWriter + IngestExternalFile
// against the same keys through Put (docs/benchmarks.md, "Bulk loading").
//
//   ingest_bench --db=DIR [--num=13700000] [--files=8] [--batch=1000]
//                [--mode=both|ingest|put]
//
// The keys are title-like (two capitalised words of three syllables, 19
// bytes, "Baldor_Fengim..."), generated in sorted order; each value is
// the key's number (8 bytes). The ingest run writes --files files in
// parallel, one thread each over a contiguous part of the keys, then
// ingests them with move_files. The put run writes the same keys from one
// thread in sorted WriteBatches of --batch keys with the WAL off (as a
// loader would) and flushes at the end, so that both end with the data in
// tables. Each run then reads every key back through an iterator and
// checks them. Only the public API and the Env are used.

#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "strata/db.h"
#include "strata/env.h"
#include "strata/iterator.h"
#include "strata/sst_file_writer.h"
#include "strata/write_batch.h"

namespace {

using strata::DB;
using strata::Options;
using strata::Status;

// Sixteen syllables in sorted order: a key's six base-16 digits spell
// it, so keys sort as their numbers do.
const char* const kSyllables[16] = {"bal", "dor", "fen", "gim", "hax", "jor",
                                    "kel", "lum", "mar", "nod", "pit", "ros",
                                    "sal", "tun", "vek", "wyn"};

void TitleKey(uint64_t n, char out[19]) {
  char* p = out;
  for (int digit = 5; digit >= 0; digit--) {
    if (digit == 2) *p++ = '_';
    std::memcpy(p, kSyllables[(n >> (4 * digit)) & 15], 3);
    p += 3;
  }
  out[0] = static_cast<char>(out[0] - 'a' + 'A');
  out[10] = static_cast<char>(out[10] - 'a' + 'A');
}

void Value(uint64_t n, char out[8]) {
  for (int i = 0; i < 8; i++) out[i] = static_cast<char>(n >> (8 * i));
}

double Seconds(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
      .count();
}

bool Check(const Status& s, const char* what) {
  if (s.ok()) return true;
  std::fprintf(stderr, "ingest_bench: %s: %s\n", what, s.ToString().c_str());
  return false;
}

Options LoadOptions() {
  Options options;
  options.create_if_missing = true;
  options.error_if_exists = true;
  options.IncreaseParallelism(2);
  return options;
}

// Every key in order, with its value: the count read, or -1 on a mismatch.
int64_t ReadBack(DB* db, uint64_t num) {
  std::unique_ptr<strata::Iterator> it(db->NewIterator(strata::ReadOptions()));
  uint64_t n = 0;
  char key[19], value[8];
  for (it->SeekToFirst(); it->Valid(); it->Next(), n++) {
    TitleKey(n, key);
    Value(n, value);
    if (n >= num || it->key() != strata::Slice(key, sizeof(key)) ||
        it->value() != strata::Slice(value, sizeof(value))) {
      std::fprintf(stderr, "ingest_bench: key %" PRIu64 " differs\n", n);
      return -1;
    }
  }
  if (!Check(it->status(), "read back")) return -1;
  return static_cast<int64_t>(n);
}

bool RunIngest(const std::string& dir, uint64_t num, int files) {
  strata::Env* env = strata::Env::Default();
  const std::string sst_dir = dir + "/ingest_files";
  const std::string db_dir = dir + "/ingest_db";
  env->CreateDirIfMissing(dir);
  if (!Check(env->CreateDirIfMissing(sst_dir), sst_dir.c_str())) return false;
  Options options = LoadOptions();
  std::vector<std::string> paths(files);
  std::vector<Status> results(files);
  const auto start = std::chrono::steady_clock::now();
  std::vector<std::thread> threads;
  for (int f = 0; f < files; f++) {
    paths[f] = sst_dir + "/part" + std::to_string(f) + ".sst";
    threads.emplace_back([&, f] {
      strata::SstFileWriter writer(strata::EnvOptions(), options);
      Status s = writer.Open(paths[f]);
      const uint64_t begin = num * f / files, end = num * (f + 1) / files;
      char key[19], value[8];
      for (uint64_t n = begin; s.ok() && n < end; n++) {
        TitleKey(n, key);
        Value(n, value);
        s = writer.Put(strata::Slice(key, sizeof(key)),
                       strata::Slice(value, sizeof(value)));
      }
      if (s.ok()) s = writer.Finish();
      results[f] = s;
    });
  }
  for (std::thread& t : threads) t.join();
  for (const Status& s : results) {
    if (!Check(s, "SstFileWriter")) return false;
  }
  const double written = Seconds(start);
  DB* raw = nullptr;
  if (!Check(DB::Open(options, db_dir, &raw), db_dir.c_str())) return false;
  std::unique_ptr<DB> db(raw);
  strata::IngestExternalFileOptions ingest;
  ingest.move_files = true;
  if (!Check(db->IngestExternalFile(paths, ingest), "IngestExternalFile")) {
    return false;
  }
  const double total = Seconds(start);
  const auto read_start = std::chrono::steady_clock::now();
  const int64_t read = ReadBack(db.get(), num);
  std::printf("ingest: %" PRIu64
              " keys, %d files written in parallel in %.2f s, "
              "ingested at %.2f s total (%.0f keys/s); read back %" PRId64
              " keys in %.2f s\n",
              num, files, written, total, num / total, read,
              Seconds(read_start));
  return read == static_cast<int64_t>(num);
}

bool RunPut(const std::string& dir, uint64_t num, int batch_keys) {
  strata::Env::Default()->CreateDirIfMissing(dir);
  const std::string db_dir = dir + "/put_db";
  DB* raw = nullptr;
  if (!Check(DB::Open(LoadOptions(), db_dir, &raw), db_dir.c_str())) {
    return false;
  }
  std::unique_ptr<DB> db(raw);
  strata::WriteOptions wo;
  wo.disableWAL = true;
  const auto start = std::chrono::steady_clock::now();
  strata::WriteBatch batch;
  char key[19], value[8];
  for (uint64_t n = 0; n < num; n++) {
    TitleKey(n, key);
    Value(n, value);
    batch.Put(strata::Slice(key, sizeof(key)),
              strata::Slice(value, sizeof(value)));
    if (batch.Count() == static_cast<uint32_t>(batch_keys) || n + 1 == num) {
      if (!Check(db->Write(wo, &batch), "Write")) return false;
      batch.Clear();
    }
  }
  if (!Check(db->Flush(strata::FlushOptions()), "Flush")) return false;
  const double total = Seconds(start);
  const auto read_start = std::chrono::steady_clock::now();
  const int64_t read = ReadBack(db.get(), num);
  std::printf("put: %" PRIu64
              " keys in sorted batches of %d, WAL off, flushed "
              "in %.2f s (%.0f keys/s); read back %" PRId64 " keys in %.2f s\n",
              num, batch_keys, total, num / total, read, Seconds(read_start));
  return read == static_cast<int64_t>(num);
}

bool Flag(const char* arg, const char* name, std::string* value) {
  const size_t n = std::strlen(name);
  if (std::strncmp(arg, name, n) != 0 || arg[n] != '=') return false;
  *value = arg + n + 1;
  return true;
}

bool Number(const std::string& text, const char* name, uint64_t* out) {
  char* end = nullptr;
  const unsigned long long v = std::strtoull(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || v == 0) {
    std::fprintf(stderr, "ingest_bench: %s needs a positive number, got '%s'\n",
                 name, text.c_str());
    return false;
  }
  *out = v;
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  std::string dir, mode = "both", text;
  uint64_t num = 13700000, files = 8, batch = 1000;
  for (int i = 1; i < argc; i++) {
    if (Flag(argv[i], "--db", &dir)) continue;
    if (Flag(argv[i], "--mode", &mode)) continue;
    if (Flag(argv[i], "--num", &text)) {
      if (!Number(text, "--num", &num)) return 1;
      continue;
    }
    if (Flag(argv[i], "--files", &text)) {
      if (!Number(text, "--files", &files) || files > 64) return 1;
      continue;
    }
    if (Flag(argv[i], "--batch", &text)) {
      if (!Number(text, "--batch", &batch) || batch > 1000000) return 1;
      continue;
    }
    std::fprintf(stderr, "ingest_bench: unknown argument '%s'\n", argv[i]);
    return 1;
  }
  if (dir.empty() || (mode != "both" && mode != "ingest" && mode != "put")) {
    std::fprintf(stderr,
                 "usage: ingest_bench --db=DIR [--num=N] [--files=N] "
                 "[--batch=N] [--mode=both|ingest|put]\n");
    return 1;
  }
  if (num > (uint64_t{1} << 24)) {
    std::fprintf(stderr, "ingest_bench: --num is at most %d\n", 1 << 24);
    return 1;
  }
  bool ok = true;
  if (mode != "put") ok = RunIngest(dir, num, static_cast<int>(files)) && ok;
  if (mode != "ingest") ok = RunPut(dir, num, static_cast<int>(batch)) && ok;
  return ok ? 0 : 1;
}
