// WriteThread in each write mode under load: many threads, random batches
// (empty and null ones too, merges that keep a group serial, mixed sync and
// disableWAL). Whatever the interleaving, every write succeeds, the
// inserted batches' sequence numbers tile 1..last with no gap or overlap,
// visibility only moves forward, and in the ordered modes a published
// number is never ahead of the inserts.

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <string>
#include <thread>
#include <vector>

#include "db/write_thread.h"
#include "gtest/gtest.h"
#include "strata/write_batch.h"
#include "test/db/fake_commit_env.h"
#include "test/db/write_modes.h"
#include "test/db/write_thread_runner.h"
#include "util/random.h"

namespace strata {
namespace {

using Writer = WriteThread::Writer;

using Mode = test::WriteMode;

WriteThread::Options OptionsFor(Mode mode) {
  switch (mode) {
    case Mode::kSerial:
      return WriteThread::Options();
    case Mode::kParallel:
      return ParallelOptions();
    case Mode::kPipelined:
      return PipelinedOptions();
    case Mode::kUnordered:
      return UnorderedOptions();
    case Mode::kUnorderedSnapshotSafe:
      return SnapshotSafeOptions();
  }
  return WriteThread::Options();
}

// One write as its thread saw it.
struct Done {
  SequenceNumber sequence;
  uint64_t count;
  std::thread::id thread;
  bool operator<(const Done& o) const { return sequence < o.sequence; }
};

class WriteThreadStressTest : public testing::TestWithParam<Mode> {};

TEST_P(WriteThreadStressTest, SequencesTileAndVisibilityMovesForward) {
  const Mode mode = GetParam();
  const int kThreads = 12;
  const int kWritesPerThread = 400;
  const bool safe = mode == Mode::kUnorderedSnapshotSafe;
  FakeCommitEnv env;
  env.set_publish_covers_groups(safe);
  WriteThread thread(OptionsFor(mode), &env);

  std::vector<std::vector<Done>> done(kThreads);
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; t++) {
    threads.emplace_back([&, t] {
      Random rnd(1000 + t);
      for (int i = 0; i < kWritesPerThread; i++) {
        WriteOptions wo;
        wo.sync = rnd.OneIn(4);
        wo.disableWAL = !wo.sync && rnd.OneIn(8);
        WriteBatch batch;
        const int puts = static_cast<int>(rnd.Uniform(6));
        for (int p = 0; p < puts; p++) {
          const std::string key = "k" + std::to_string(rnd.Uniform(100));
          EXPECT_TRUE(batch.Put(key, std::string(rnd.Uniform(200), 'v')).ok());
        }
        if (rnd.OneIn(25)) {
          EXPECT_TRUE(batch.Merge("m", "operand").ok());
        }
        Writer w(wo, rnd.OneIn(10) ? nullptr : &batch);
        if (!thread.Write(&w).ok()) failures++;
        done[t].push_back({w.sequence, w.batch == nullptr ? 0 : batch.Count(),
                           std::this_thread::get_id()});
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(0, failures.load());

  // The writers' ranges tile 1..total.
  std::vector<Done> writes;
  uint64_t total = 0;
  for (const std::vector<Done>& per_thread : done) {
    for (const Done& d : per_thread) {
      total += d.count;
      if (d.count > 0) writes.push_back(d);
    }
  }
  std::sort(writes.begin(), writes.end());
  SequenceNumber next = 1;
  for (const Done& d : writes) {
    ASSERT_EQ(next, d.sequence);
    next += d.count;
  }
  ASSERT_EQ(total + 1, next);

  // Exactly those batches reached the memtable, each once; a member
  // insert ran on the writer's own thread.
  std::vector<FakeCommitEnv::Insert> inserts = env.inserts();
  std::sort(inserts.begin(), inserts.end(),
            [](const FakeCommitEnv::Insert& a, const FakeCommitEnv::Insert& b) {
              return a.sequence < b.sequence;
            });
  ASSERT_EQ(writes.size(), inserts.size());
  size_t by_member = 0;
  for (size_t i = 0; i < inserts.size(); i++) {
    ASSERT_EQ(writes[i].sequence, inserts[i].sequence) << i;
    ASSERT_EQ(writes[i].count, inserts[i].count) << i;
    if (inserts[i].by_member) {
      by_member++;
      EXPECT_EQ(writes[i].thread, inserts[i].thread) << i;
    }
    if (mode == Mode::kUnordered) {
      // Visible before it was inserted.
      EXPECT_GE(inserts[i].published,
                inserts[i].sequence + inserts[i].count - 1)
          << i;
    }
    if (safe) {
      // Not visible before it was inserted.
      EXPECT_LT(inserts[i].published, inserts[i].sequence) << i;
    }
  }
  if (mode == Mode::kSerial || mode == Mode::kPipelined) {
    EXPECT_EQ(0u, by_member);
  }
  if (mode == Mode::kUnordered || safe) {
    EXPECT_EQ(inserts.size(), by_member);
  }

  // Every group published once (the snapshot-safe mode: every group in a
  // publish that covers a run of groups), in order, never backwards.
  const std::vector<SequenceNumber> published = env.published();
  if (safe) {
    ASSERT_LE(published.size(), env.groups().size());
    // A group without updates after the last publish has nothing to show.
    for (const GroupRecord& g : env.groups()) {
      if (g.total_count > 0) {
        EXPECT_TRUE(g.published);
      }
    }
  } else {
    ASSERT_EQ(env.groups().size(), published.size());
  }
  for (size_t i = 1; i < published.size(); i++) {
    ASSERT_LE(published[i - 1], published[i]) << i;
  }
  EXPECT_EQ(total, published.back());
  if (mode != Mode::kUnordered && !safe) {
    // When a number is published, every batch up to it is in, and none
    // after it.
    for (const FakeCommitEnv::Event& e : env.events()) {
      if (e.kind == FakeCommitEnv::Event::kPublish) {
        ASSERT_EQ(e.sequence, e.inserted);
      }
    }
  }
  EXPECT_EQ(0u, env.pending());
  if (mode == Mode::kSerial || mode == Mode::kParallel) {
    EXPECT_FALSE(env.overlapped());
  }
}

INSTANTIATE_TEST_SUITE_P(Modes, WriteThreadStressTest,
                         testing::ValuesIn(test::kAllWriteModes),
                         [](const testing::TestParamInfo<Mode>& info) {
                           return std::string(test::WriteModeName(info.param));
                         });

}  // namespace
}  // namespace strata
