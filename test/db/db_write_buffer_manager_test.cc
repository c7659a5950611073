// The memtable budget (strata/write_buffer_manager.h) on whole DBs: two
// DBs sharing one manager, db_write_buffer_size alone, the memory charged
// to a block cache, and stalls (allow_stall) that end and never deadlock.

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "db/db_impl.h"
#include "gtest/gtest.h"
#include "strata/cache.h"
#include "strata/statistics.h"
#include "strata/table.h"
#include "strata/write_buffer_manager.h"
#include "test/db/column_family_test_util.h"
#include "test/db/db_test_util.h"
#include "test/util/fault_injection_env.h"
#include "test/util/testutil.h"

namespace strata {
namespace test {
namespace {

// The families' own limit, far above every budget here: only the manager
// retires memtables. Below 16 MiB, so that memtables take 64 KiB arena
// chunks as they grow rather than a 2 MiB huge-page region at once
// (memtable_huge_page_size).
constexpr size_t kLargeWriteBuffer = 8 << 20;

std::string Key(int writer, int i) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "w%02d-%07d", writer, i);
  return buf;
}
std::string Value(int writer, int i) {
  return Key(writer, i) + std::string(100, static_cast<char>('a' + i % 26));
}

// The memory of every memtable (active and immutable) of db's families.
uint64_t MemTableBytes(DB* db, const std::vector<ColumnFamilyHandle*>& cfs) {
  uint64_t total = 0;
  for (ColumnFamilyHandle* cf : cfs) {
    uint64_t v = 0;
    EXPECT_TRUE(db->GetIntProperty(cf, "strata.cur-size-all-mem-tables", &v));
    total += v;
  }
  return total;
}

void ConfigureFamilies(FamilyDB* db,
                       const std::shared_ptr<WriteBufferManager>& wbm) {
  db->options_.create_missing_column_families = true;
  db->options_.write_buffer_size = kLargeWriteBuffer;
  db->options_.max_write_buffer_number = 4;
  db->options_.write_buffer_manager = wbm;
}

// Two DBs of two families each share a budget of N bytes with stalls on;
// four writers per DB write to both families at once while a monitor
// samples the memtables' memory. The bound asserted is N + 384 KiB, six
// 64 KiB arena chunks (ConcurrentArena::kDefaultBlockSize, the step by
// which a memtable grows): a stall ends as soon as the memory is below N,
// and both DBs' groups then go on, each making each of its two families'
// memtables take a chunk at most (4); the next group of each DB may
// retire a memtable before it stalls again, and the new memtable takes
// its first chunk at once (2). Measured on a 2-core VM under ASan over
// ten runs: peaks of N + 129 KiB to N + 257 KiB, the manager's figure
// the same (the properties read the memtables themselves; the manager
// lags by at most a group, and no sample caught the gap).
TEST(DBWriteBufferManagerTest, TwoDBsShareOneBudget) {
  constexpr size_t kBudget = 1 << 20;
  constexpr size_t kSlack = 384 * kKiB;
  constexpr int kWritersPerDB = 4;
  constexpr int kKeysPerWriter = 3000;
  auto wbm = std::make_shared<WriteBufferManager>(kBudget, nullptr,
                                                  /*allow_stall=*/true);
  FamilyDB dbs[2];
  for (FamilyDB& db : dbs) {
    ConfigureFamilies(&db, wbm);
    db.Open({"b"});
  }

  std::atomic<bool> done{false};
  uint64_t peak_tables = 0, peak_manager = 0;
  std::thread monitor([&] {
    while (!done.load()) {
      uint64_t total = 0;
      for (FamilyDB& db : dbs) total += MemTableBytes(db.db_, db.handles_);
      peak_tables = std::max(peak_tables, total);
      peak_manager = std::max<uint64_t>(peak_manager, wbm->memory_usage());
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
  });
  std::vector<std::thread> writers;
  for (int d = 0; d < 2; d++) {
    for (int w = 0; w < kWritersPerDB; w++) {
      writers.emplace_back([&dbs, d, w] {
        for (int i = 0; i < kKeysPerWriter; i++) {
          Status s = dbs[d].Put(i % 2, Key(w, i), Value(w, i));
          ASSERT_TRUE(s.ok()) << s.ToString();
        }
      });
    }
  }
  for (std::thread& t : writers) t.join();
  done = true;
  monitor.join();
  std::printf("budget %zu KiB: peak memtables %llu KiB, manager %llu KiB\n",
              kBudget / kKiB,
              static_cast<unsigned long long>(peak_tables / kKiB),
              static_cast<unsigned long long>(peak_manager / kKiB));
  EXPECT_LE(peak_tables, kBudget + kSlack);
  EXPECT_LE(peak_manager, kBudget + kSlack);
  // The data (about 3 MiB a DB) went through flushes the budget asked
  // for: no family reached its own write_buffer_size.
  for (FamilyDB& db : dbs) {
    EXPECT_GT(
        TableCount(db.db_, db.handles_[0]) + TableCount(db.db_, db.handles_[1]),
        1u);
  }

  for (FamilyDB& db : dbs) db.Close();
  // Closed DBs hold nothing of the budget.
  EXPECT_EQ(0u, wbm->memory_usage());
  EXPECT_EQ(0u, wbm->mutable_memtable_memory_usage());
  for (FamilyDB& db : dbs) {
    db.Open({"b"});
    for (int w = 0; w < kWritersPerDB; w++) {
      for (int i = 0; i < kKeysPerWriter; i++) {
        ASSERT_EQ(Value(w, i), db.Get(i % 2, Key(w, i)));
      }
    }
  }
}

// db_write_buffer_size alone gives the DB a manager of its own, which
// flushes the family with the largest memtable.
TEST(DBWriteBufferManagerTest, DbWriteBufferSizeAlone) {
  constexpr size_t kBudget = 2 << 20;
  FamilyDB db;
  db.options_.create_missing_column_families = true;
  db.options_.write_buffer_size = kLargeWriteBuffer;
  db.options_.db_write_buffer_size = kBudget;
  db.Open({"big", "small"});
  const DBOptions options = db.db_->GetDBOptions();
  ASSERT_NE(nullptr, options.write_buffer_manager);
  EXPECT_EQ(kBudget, options.write_buffer_manager->buffer_size());
  EXPECT_FALSE(options.write_buffer_manager->ShouldStall());

  // Some 7 MiB of memtable into "big", a little into "small": only "big"
  // is ever the largest. (The budget is well above what the three
  // families' memtables take when new, 64 to 128 KiB each: with one close
  // to that, "small" could be the largest right after "big" was retired.)
  for (int i = 0; i < 40000; i++) {
    ASSERT_TRUE(db.Put(1, Key(0, i), Value(0, i)).ok());
    if (i % 1000 == 0) {
      ASSERT_TRUE(db.Put(2, Key(1, i), Value(1, i)).ok());
    }
  }
  ASSERT_TRUE(db.WaitForBackgroundWork().ok());
  EXPECT_GE(TableCount(db.db_, db.handles_[1]), 3u);
  EXPECT_EQ(0u, TableCount(db.db_, db.handles_[2]));
  // Without stalls the immutable memtables waiting for their flush come
  // on top; once they are flushed the rest is within the budget.
  EXPECT_LE(MemTableBytes(db.db_, db.handles_), kBudget);
  EXPECT_LE(options.write_buffer_manager->memory_usage(), kBudget);

  db.Reopen({"big", "small"});
  for (int i = 0; i < 40000; i++) {
    ASSERT_EQ(Value(0, i), db.Get(1, Key(0, i)));
    if (i % 1000 == 0) {
      ASSERT_EQ(Value(1, i), db.Get(2, Key(1, i)));
    }
  }
}

// A manager charging a cache: the cache's usage follows the memtables'
// memory up, and comes down once they are flushed. The same cache as
// block cache holds both.
TEST(DBWriteBufferManagerTest, MemoryChargedToTheBlockCache) {
  std::shared_ptr<Cache> cache = NewLRUCache(64 << 20, 0);
  auto wbm = std::make_shared<WriteBufferManager>(0, cache);
  DBHolder h;
  h.options().write_buffer_size = kLargeWriteBuffer;
  h.options().write_buffer_manager = wbm;
  BlockBasedTableOptions table_options;
  table_options.block_cache = cache;
  h.options().table_factory.reset(NewBlockBasedTableFactory(table_options));
  ASSERT_TRUE(h.Open().ok());
  DB* db = h.db();

  uint64_t previous = 0;
  for (int round = 0; round < 4; round++) {
    for (int i = 0; i < 3000; i++) {
      const int k = round * 3000 + i;
      ASSERT_TRUE(h.Put(Key(0, k), Value(0, k)).ok());
    }
    uint64_t memtables = 0;
    ASSERT_TRUE(
        db->GetIntProperty("strata.cur-size-all-mem-tables", &memtables));
    // Whole 256 KiB entries covering what the groups before the last one
    // reported (the last group's inserts are reported by the next).
    const size_t charged = wbm->dummy_entries_in_cache_usage();
    EXPECT_GT(charged, previous);
    EXPECT_GE(charged + 256 * kKiB, memtables);
    EXPECT_LE(charged, memtables + 256 * kKiB);
    EXPECT_EQ(charged, cache->GetUsage());
    previous = charged;
  }

  ASSERT_TRUE(db->Flush(FlushOptions()).ok());
  // The flushed memtable's charge is gone; what is left is the new empty
  // memtable's first chunk, in one entry.
  uint64_t memtables = 0;
  ASSERT_TRUE(db->GetIntProperty("strata.cur-size-all-mem-tables", &memtables));
  EXPECT_EQ(memtables, wbm->memory_usage());
  EXPECT_EQ(256 * kKiB, wbm->dummy_entries_in_cache_usage());
  EXPECT_EQ(256 * kKiB, cache->GetUsage());
  // Reads fill the cache with blocks, next to the memtables' charge.
  for (int k = 0; k < 12000; k += 100) {
    ASSERT_EQ(Value(0, k), h.Get(Key(0, k)));
  }
  EXPECT_EQ(256 * kKiB, wbm->dummy_entries_in_cache_usage());
  EXPECT_GT(cache->GetUsage(), wbm->dummy_entries_in_cache_usage());
  h.Close();
  EXPECT_EQ(0u, wbm->dummy_entries_in_cache_usage());
}

// A budget of a few memtable chunks with stalls on: eight writers on two
// families finish, and every write is there.
TEST(DBWriteBufferManagerTest, TinyBudgetWithStallsCompletes) {
  auto wbm = std::make_shared<WriteBufferManager>(128 * kKiB, nullptr,
                                                  /*allow_stall=*/true);
  FamilyDB db;
  ConfigureFamilies(&db, wbm);
  db.options_.statistics = CreateDBStatistics();
  db.Open({"b"});
  std::vector<std::thread> writers;
  for (int w = 0; w < 8; w++) {
    writers.emplace_back([&db, w] {
      for (int i = 0; i < 1000; i++) {
        Status s = db.Put((w + i) % 2, Key(w, i), Value(w, i));
        ASSERT_TRUE(s.ok()) << s.ToString();
      }
    });
  }
  for (std::thread& t : writers) t.join();
  EXPECT_GT(db.options_.statistics->getTickerCount(STALL_MICROS), 0u);
  db.Reopen({"b"});
  for (int w = 0; w < 8; w++) {
    for (int i = 0; i < 1000; i++) {
      ASSERT_EQ(Value(w, i), db.Get((w + i) % 2, Key(w, i)));
    }
  }
}

// Fills a DB behind a closed table gate until the budget is passed with a
// flush held at the gate: writes then stall. (Its files go through a
// FaultInjectionEnv, to fail the flush.)
class StalledDB {
 public:
  explicit StalledDB(size_t budget)
      : fault_(Env::Default()),
        gate_(&fault_),
        wbm_(std::make_shared<WriteBufferManager>(budget, nullptr,
                                                  /*allow_stall=*/true)),
        holder_(&gate_) {
    holder_.options().write_buffer_size = kLargeWriteBuffer;
    holder_.options().max_write_buffer_number = 4;
    holder_.options().write_buffer_manager = wbm_;
  }
  ~StalledDB() { gate_.Open(true); }

  void OpenAndFill() {
    ASSERT_TRUE(holder_.Open().ok());
    gate_.Open(false);
    WriteOptions fast;
    fast.no_slowdown = true;
    int i = 0;
    for (; i < 100000; i++) {
      Status s = holder_.db()->Put(fast, Key(0, i), Value(0, i));
      if (s.IsIncomplete()) break;
      ASSERT_TRUE(s.ok()) << s.ToString();
    }
    ASSERT_LT(i, 100000) << "the budget never stalled a write";
    written_ = i;
    EXPECT_TRUE(wbm_->ShouldStall());
  }

  FaultInjectionEnv fault_;
  TableGateEnv gate_;
  std::shared_ptr<WriteBufferManager> wbm_;
  DBHolder holder_;
  int written_ = 0;
};

// A stalled write waits for the flush, and goes on once it freed memory.
TEST(DBWriteBufferManagerTest, StalledWriteWaitsForTheFlush) {
  StalledDB t(256 * kKiB);
  ASSERT_NO_FATAL_FAILURE(t.OpenAndFill());
  std::atomic<bool> finished{false};
  Status status;
  std::thread writer([&] {
    status = t.holder_.Put("late", "write");
    finished = true;
  });
  t.gate_.AwaitWaiter();  // the flush that would free memory is held
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  EXPECT_FALSE(finished.load());
  t.gate_.Open(true);
  writer.join();
  ASSERT_TRUE(status.ok()) << status.ToString();
  EXPECT_EQ("write", t.holder_.Get("late"));
  for (int i = 0; i < t.written_; i++) {
    ASSERT_EQ(Value(0, i), t.holder_.Get(Key(0, i)));
  }
}

// Closing the DB ends a stall of its own writer.
TEST(DBWriteBufferManagerTest, CloseEndsAStall) {
  StalledDB t(256 * kKiB);
  ASSERT_NO_FATAL_FAILURE(t.OpenAndFill());
  DB* db = t.holder_.db();
  Status status, closed;
  std::thread writer(
      [&] { status = db->Put(WriteOptions(), "late", "write"); });
  t.gate_.AwaitWaiter();
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  // Close waits for the flush at the gate; the writer gives up at once.
  std::thread closer([&] { closed = db->Close(); });
  writer.join();
  EXPECT_TRUE(status.IsShutdownInProgress()) << status.ToString();
  t.gate_.Open(true);
  closer.join();
  EXPECT_TRUE(closed.ok()) << closed.ToString();
  EXPECT_EQ(0u, t.wbm_->memory_usage());
}

// A flush that fails ends the stall it was to end: the writer gets the
// error, and the memory it would have freed no longer counts as being
// freed (nothing will free it until the DB closes).
TEST(DBWriteBufferManagerTest, FailedFlushEndsAStall) {
  StalledDB t(256 * kKiB);
  ASSERT_NO_FATAL_FAILURE(t.OpenAndFill());
  Status status;
  std::thread writer([&] { status = t.holder_.Put("late", "write"); });
  t.gate_.AwaitWaiter();
  t.fault_.FailAll(IOKind::kWrite, Status::IOError("injected"));
  t.gate_.Open(true);
  writer.join();
  EXPECT_TRUE(status.IsIOError()) << status.ToString();
  EXPECT_FALSE(t.wbm_->IsStallActive());
  EXPECT_EQ(t.wbm_->memory_usage(), t.wbm_->mutable_memtable_memory_usage());
  t.fault_.ClearFailures();
  t.holder_.Close();
  EXPECT_EQ(0u, t.wbm_->memory_usage());
}

// A DB holding the whole budget in an active memtable, and not writing,
// does not stall another DB's writes: nothing is being flushed that could
// end the stall. The other DB flushes its own memtables instead.
TEST(DBWriteBufferManagerTest, IdleDBHoldingTheBudgetStallsNobody) {
  auto wbm = std::make_shared<WriteBufferManager>(4 << 20, nullptr,
                                                  /*allow_stall=*/true);
  FamilyDB idle, busy;
  ConfigureFamilies(&idle, wbm);
  ConfigureFamilies(&busy, wbm);
  idle.Open({});
  busy.Open({});
  for (int i = 0; i < 3000; i++) {
    ASSERT_TRUE(idle.Put(0, Key(0, i), Value(0, i)).ok());
  }
  ASSERT_TRUE(idle.Put(0, "last", "report").ok());  // reports the rest
  const size_t held = wbm->memory_usage();
  ASSERT_GT(held, 256 * kKiB);
  wbm->SetBufferSize(held / 2);  // now far past it, all in `idle`
  EXPECT_TRUE(wbm->ShouldFlush());
  EXPECT_TRUE(wbm->ShouldStall());
  // Once its memtable has grown by an arena chunk, a write retires it and
  // waits for its flush.
  for (int i = 0; i < 2000; i++) {
    ASSERT_TRUE(busy.Put(0, Key(1, i), Value(1, i)).ok());
  }
  EXPECT_GT(TableCount(busy.db_, busy.handles_[0]), 0u);
  EXPECT_EQ(0u, TableCount(idle.db_, idle.handles_[0]));
  for (int i = 0; i < 2000; i++) {
    ASSERT_EQ(Value(1, i), busy.Get(0, Key(1, i)));
  }
}

}  // namespace
}  // namespace test
}  // namespace strata
