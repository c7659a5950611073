#include "util/aligned_buffer.h"

#include <cstdint>
#include <string>

#include "gtest/gtest.h"

namespace strata {
namespace {

TEST(AlignedBufferTest, StartIsAlignedAndCapacityRounded) {
  for (size_t alignment : {size_t{512}, size_t{4096}, size_t{65536}}) {
    AlignedBuffer buf;
    buf.Alignment(alignment);
    buf.AllocateNewBuffer(alignment + 1);
    EXPECT_EQ(0u, reinterpret_cast<uintptr_t>(buf.BufferStart()) % alignment);
    EXPECT_EQ(2 * alignment, buf.Capacity());
    EXPECT_EQ(0u, buf.CurrentSize());
  }
}

TEST(AlignedBufferTest, AppendPadAndRefitTail) {
  AlignedBuffer buf;
  buf.Alignment(512);
  buf.AllocateNewBuffer(1024);
  const std::string data(700, 'x');
  EXPECT_EQ(700u, buf.Append(data.data(), data.size()));
  EXPECT_EQ(700u, buf.CurrentSize());
  // Only what fits is taken.
  const std::string more(500, 'y');
  EXPECT_EQ(324u, buf.Append(more.data(), more.size()));
  EXPECT_EQ(1024u, buf.CurrentSize());

  buf.Size(700);
  buf.PadToAlignment();
  EXPECT_EQ(1024u, buf.CurrentSize());
  for (size_t i = 700; i < 1024; i++) ASSERT_EQ('\0', buf.BufferStart()[i]);

  // Keep bytes [512, 700): they move to the front.
  buf.RefitTail(512, 188);
  EXPECT_EQ(188u, buf.CurrentSize());
  EXPECT_EQ(std::string(188, 'x'), std::string(buf.BufferStart(), 188));
}

TEST(AlignedBufferTest, GrowKeepsData) {
  AlignedBuffer buf;
  buf.Alignment(4096);
  buf.AllocateNewBuffer(4096);
  buf.Append("abc", 3);
  buf.AllocateNewBuffer(3 * 4096, /*copy_data=*/true);
  EXPECT_EQ(3 * 4096u, buf.Capacity());
  EXPECT_EQ("abc", std::string(buf.BufferStart(), buf.CurrentSize()));
  buf.AllocateNewBuffer(4096);  // smaller, without copy: emptied
  EXPECT_EQ(0u, buf.CurrentSize());
  EXPECT_EQ(0u, buf.RoundUp(0));
  EXPECT_EQ(4096u, buf.RoundUp(1));
  EXPECT_EQ(4096u, buf.TruncateToAlignment(8191));
}

}  // namespace
}  // namespace strata
