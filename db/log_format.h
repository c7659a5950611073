// The write-ahead log format (docs/formats/wal.md), shared by log::Writer
// and log::Reader.
//
// A log file is a sequence of 32 KiB blocks (the last one may be partial).
// A record — one WriteBatch, or a group of them merged — is stored as one
// or more fragments; a fragment never crosses a block boundary:
//
//   block:     | fragment | fragment | ... | fragment | trailer |
//                                                      (< 7 zero bytes)
//   fragment:
//   +-------------------+------------------+---------+-------------------+
//   | masked crc32c (4) | length (2, LE)   | type(1) | payload (length)  |
//   +-------------------+------------------+---------+-------------------+
//     crc covers the type byte and the payload
//
// A record that fits in what is left of the block is one kFullType
// fragment. Otherwise it is a kFirstType fragment that fills the block,
// kMiddleType fragments that fill whole blocks, and a kLastType fragment.
// When fewer than kHeaderSize bytes are left in a block, the writer fills
// them with zeros and continues in the next block.
//
// A WAL the DB starts in place of a full one begins with a
// kPredecessorType fragment naming the log it follows and that log's
// length, so that recovery can tell when a power loss took the end of the
// older log but kept data of the newer one.

#ifndef STRATA_DB_LOG_FORMAT_H_
#define STRATA_DB_LOG_FORMAT_H_

#include <cstddef>

namespace strata {
namespace log {

enum RecordType : unsigned char {
  // Never written: preallocated or mmap-padded space reads as zeros, and a
  // header of type 0 and length 0 ends its block.
  kZeroType = 0,
  kFullType = 1,
  // A fragmented record.
  kFirstType = 2,
  kMiddleType = 3,
  kLastType = 4,
  // Only as a log's first fragment, whole: the predecessor's log number
  // and length in bytes, fixed64 each.
  kPredecessorType = 5,
};
constexpr unsigned char kMaxRecordType = kPredecessorType;

constexpr size_t kPredecessorPayloadSize = 8 + 8;

constexpr size_t kBlockSize = 32768;

// crc32c (4) + length (2) + type (1).
constexpr size_t kHeaderSize = 4 + 2 + 1;

}  // namespace log
}  // namespace strata

#endif  // STRATA_DB_LOG_FORMAT_H_
