#include "loom/core/command_stream.h"

#include <gtest/gtest.h>

#include <cstring>

namespace loom::core {
namespace {

std::vector<Opcode> opcodes(const CommandStream& stream) {
  std::vector<Opcode> result;
  forEachCommand(stream.bytes(), [&](const DecodedCommand& command) { result.push_back(command.header->opcode); });
  return result;
}

TEST(CommandStream, DecodesCommandsInTheOrderTheyWereEncoded) {
  CommandStream stream;
  int a = 0, b = 0;
  stream.appendCopy({&a, &b, sizeof(int)});
  stream.appendBarrier();
  stream.appendWriteTimestamp(nullptr);
  EXPECT_EQ(opcodes(stream), (std::vector<Opcode>{Opcode::Copy, Opcode::Barrier, Opcode::WriteTimestamp}));
}

TEST(CommandStream, TakeHandsTheBytesOverAndLeavesTheStreamEmpty) {
  CommandStream stream;
  stream.appendBarrier();
  const std::vector<uint8_t> encoded = stream.bytes();
  EXPECT_EQ(stream.take(), encoded);
  EXPECT_TRUE(stream.empty());
}

TEST(CommandStream, KeepsPayloadAndTrailingDataOfEveryCommand) {
  CommandStream stream;
  const uint8_t pattern[3] = {1, 2, 3};
  char buffer[16];
  stream.appendFill({buffer, sizeof(buffer), sizeof(pattern)}, pattern);
  const uint32_t arguments[5] = {10, 20, 30, 40, 50};
  LaunchKernelCommand launch{};
  launch.launch.groupCount[0] = 7;
  launch.launch.argumentSize = sizeof(arguments);
  stream.appendLaunchKernel(launch, arguments);
  Event* events[2] = {reinterpret_cast<Event*>(0x1000), reinterpret_cast<Event*>(0x2000)};
  stream.appendWaitEvents(events, 2);

  std::vector<DecodedCommand> decoded;
  forEachCommand(stream.bytes(), [&](const DecodedCommand& command) { decoded.push_back(command); });
  ASSERT_EQ(decoded.size(), 3u);
  EXPECT_EQ(decoded[0].as<FillCommand>().destination, buffer);
  EXPECT_EQ(std::memcmp(trailingData(decoded[0]), pattern, sizeof(pattern)), 0);
  EXPECT_EQ(decoded[1].as<LaunchKernelCommand>().launch.groupCount[0], 7u);
  EXPECT_EQ(std::memcmp(trailingData(decoded[1]), arguments, sizeof(arguments)), 0);
  EXPECT_EQ(decoded[2].as<WaitEventsCommand>().count, 2u);
  EXPECT_EQ(reinterpret_cast<Event* const*>(trailingData(decoded[2]))[1], events[1]);
}

TEST(CommandStream, StartsEveryCommandEightByteAligned) {
  CommandStream stream;
  const uint8_t pattern = 0xab;
  char buffer[4];
  stream.appendFill({buffer, 4, 1}, &pattern);
  stream.appendBarrier();
  forEachCommand(stream.bytes(), [&](const DecodedCommand& command) {
    EXPECT_EQ(reinterpret_cast<uintptr_t>(command.header) % 8, 0u);
    EXPECT_EQ(command.header->size % 8, 0u);
  });
}

TEST(CommandStream, DescribesEachCommandInWords) {
  CommandStream stream;
  int a = 0, b = 0;
  stream.appendCopy({&a, &b, 4});
  stream.appendSignalEvent(nullptr);
  const std::string text = describeCommandStream(stream.bytes());
  EXPECT_NE(text.find("COPY"), std::string::npos);
  EXPECT_NE(text.find("size=4"), std::string::npos);
  EXPECT_NE(text.find("SIGNAL_EVENT"), std::string::npos);
}

// Both APIs frame each command the same way.
TEST(CommandStream, FramesACommandWithItsWaitsStartMarkAndSignal) {
  Event* waits[2] = {reinterpret_cast<Event*>(0x1000), reinterpret_cast<Event*>(0x2000)};
  auto* event = reinterpret_cast<Event*>(0x3000);
  CommandStream stream;
  stream.appendFramed({waits, event, event}, [](CommandStream& inside) { inside.appendBarrier(); });
  EXPECT_EQ(opcodes(stream),
            (std::vector<Opcode>{Opcode::WaitEvents, Opcode::MarkEventStart, Opcode::Barrier, Opcode::SignalEvent}));
  std::vector<DecodedCommand> decoded;
  forEachCommand(stream.bytes(), [&](const DecodedCommand& command) { decoded.push_back(command); });
  EXPECT_EQ(decoded[0].as<WaitEventsCommand>().count, 2u);
  EXPECT_EQ(decoded[1].as<EventCommand>().event, event);
  EXPECT_EQ(decoded[3].as<EventCommand>().event, event);
}

TEST(CommandStream, FramingLeavesOutWhatIsNotThere) {
  auto* event = reinterpret_cast<Event*>(0x3000);
  CommandStream bare;
  bare.appendFramed({}, [](CommandStream& inside) { inside.appendBarrier(); });
  EXPECT_EQ(opcodes(bare), std::vector<Opcode>{Opcode::Barrier});
  CommandStream untimed;
  untimed.appendFramed({{}, nullptr, event}, [](CommandStream&) {});
  EXPECT_EQ(opcodes(untimed), std::vector<Opcode>{Opcode::SignalEvent});
}

// Streams are taken for each submission and start again empty: the next one works as the first.
TEST(CommandStream, EncodesAgainAfterTake) {
  CommandStream stream;
  const uint64_t arguments[40] = {1, 2, 3};
  LaunchKernelCommand launch{};
  launch.launch.argumentSize = sizeof(arguments);
  for (int round = 0; round < 3; ++round) {
    stream.appendLaunchKernel(launch, arguments);
    stream.appendBarrier();
    const std::vector<uint8_t> taken = stream.take();
    std::vector<Opcode> decoded;
    forEachCommand(taken, [&](const DecodedCommand& command) { decoded.push_back(command.header->opcode); });
    EXPECT_EQ(decoded, (std::vector<Opcode>{Opcode::LaunchKernel, Opcode::Barrier}));
    EXPECT_TRUE(stream.empty());
  }
}

TEST(CommandStream, ClearEmptiesTheStream) {
  CommandStream stream;
  stream.appendBarrier();
  EXPECT_FALSE(stream.empty());
  stream.clear();
  EXPECT_TRUE(stream.empty());
  EXPECT_TRUE(opcodes(stream).empty());
}

}  // namespace
}  // namespace loom::core
