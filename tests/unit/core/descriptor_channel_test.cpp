// The descriptor channel: another process receives descriptors of the very files the offering
// process holds, with the payload, in as many parts as it takes; an offer is served only to the
// ticket that names it and only until it is withdrawn; nothing is left open on either side.
#include "loom/core/descriptor_channel.h"

#include <gtest/gtest.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

namespace loom::core {
namespace {

size_t openDescriptors() {
  size_t count = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator("/proc/self/fd")) ++count;
  return count;
}

struct FileId {
  dev_t device;
  ino_t inode;
  bool operator==(const FileId&) const = default;
};
FileId idOf(int descriptor) {
  struct stat facts {};
  fstat(descriptor, &facts);
  return {facts.st_dev, facts.st_ino};
}

// Memfds with a word each, which the provider hands out as duplicates.
class DescriptorChannelTest : public ::testing::Test {
 protected:
  void makeFiles(size_t count) {
    for (size_t i = 0; i < count; ++i) {
      const int file = memfd_create("descriptor-channel-test", MFD_CLOEXEC);
      ASSERT_GE(file, 0);
      const uint32_t word = uint32_t(1000 + i);
      ASSERT_EQ(pwrite(file, &word, sizeof(word), 0), ssize_t(sizeof(word)));
      files.push_back(file);
    }
  }
  void TearDown() override {
    for (int file : files) close(file);
  }
  DescriptorChannel::Provider duplicatesOfFiles(std::vector<uint8_t> payload = {1, 2, 3}) {
    return [this, payload](std::vector<int>& descriptors, std::vector<uint8_t>& bytes) {
      for (int file : files) descriptors.push_back(dup(file));
      bytes = payload;
      return true;
    };
  }
  DescriptorTicket offer(DescriptorChannel::Provider provider) {
    std::string why;
    std::optional<DescriptorTicket> ticket = DescriptorChannel::instance().offer(std::move(provider), why);
    EXPECT_TRUE(ticket) << why;
    return ticket.value_or(DescriptorTicket{});
  }
  static uint32_t wordOf(int descriptor) {
    uint32_t word = 0;
    EXPECT_EQ(pread(descriptor, &word, sizeof(word), 0), ssize_t(sizeof(word)));
    return word;
  }

  std::vector<int> files;
};

TEST_F(DescriptorChannelTest, AChildProcessReceivesDescriptorsOfTheSameFiles) {
  makeFiles(3);
  std::vector<FileId> ids;
  for (int file : files) ids.push_back(idOf(file));
  const DescriptorTicket ticket = offer(duplicatesOfFiles({7, 8, 9}));
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    // Only what the child fetched: its inherited copies of the files are closed first.
    for (int file : files) close(file);
    std::vector<int> descriptors;
    std::vector<uint8_t> payload;
    std::string why;
    if (!DescriptorChannel::fetch(ticket, descriptors, payload, why)) _exit(1);
    if (descriptors.size() != ids.size() || payload != std::vector<uint8_t>{7, 8, 9}) _exit(2);
    for (size_t i = 0; i < descriptors.size(); ++i) {
      if (!(idOf(descriptors[i]) == ids[i]) || wordOf(descriptors[i]) != 1000 + i) _exit(3);
      const uint32_t answer = uint32_t(2000 + i);
      if (pwrite(descriptors[i], &answer, sizeof(answer), 0) != ssize_t(sizeof(answer))) _exit(4);
    }
    _exit(0);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "1: fetch failed, 2: wrong count or payload, 3: another file, 4: not writable";
  for (size_t i = 0; i < files.size(); ++i) EXPECT_EQ(wordOf(files[i]), 2000 + i) << "the child wrote file " << i;
  DescriptorChannel::instance().withdraw(ticket.offer);
}

TEST_F(DescriptorChannelTest, CarriesMoreDescriptorsAndPayloadThanOneMessageHolds) {
  makeFiles(250);  // the provider's duplicates and those received stay under 1024 open files
  std::vector<uint8_t> payload(40000);
  for (size_t i = 0; i < payload.size(); ++i) payload[i] = uint8_t(i * 7);
  const DescriptorTicket ticket = offer(duplicatesOfFiles(payload));
  std::vector<int> descriptors;
  std::vector<uint8_t> received;
  std::string why;
  ASSERT_TRUE(DescriptorChannel::fetch(ticket, descriptors, received, why)) << why;
  EXPECT_EQ(received, payload);
  ASSERT_EQ(descriptors.size(), files.size());
  for (size_t i = 0; i < descriptors.size(); ++i) {
    EXPECT_TRUE(idOf(descriptors[i]) == idOf(files[i])) << "descriptor " << i << " in order";
    close(descriptors[i]);
  }
  DescriptorChannel::instance().withdraw(ticket.offer);
}

TEST_F(DescriptorChannelTest, ServesOnlyTheTicketThatNamesAnOpenOffer) {
  makeFiles(1);
  const DescriptorTicket ticket = offer(duplicatesOfFiles());
  std::vector<int> descriptors;
  std::vector<uint8_t> payload;
  std::string why;
  DescriptorTicket forged = ticket;
  forged.secret.bytes[3] ^= 1;
  EXPECT_FALSE(DescriptorChannel::fetch(forged, descriptors, payload, why));
  EXPECT_NE(why.find("offers nothing"), std::string::npos) << why;
  DescriptorTicket otherOffer = ticket;
  otherOffer.offer += 1000;
  EXPECT_FALSE(DescriptorChannel::fetch(otherOffer, descriptors, payload, why));
  EXPECT_TRUE(descriptors.empty());

  // A second offer keeps the channel serving after the first is withdrawn.
  const DescriptorTicket second = offer(duplicatesOfFiles());
  DescriptorChannel::instance().withdraw(ticket.offer);
  EXPECT_FALSE(DescriptorChannel::fetch(ticket, descriptors, payload, why)) << "a withdrawn offer";
  ASSERT_TRUE(DescriptorChannel::fetch(second, descriptors, payload, why)) << why;
  for (int descriptor : descriptors) close(descriptor);
  DescriptorChannel::instance().withdraw(second.offer);
  EXPECT_FALSE(DescriptorChannel::fetch(second, descriptors, payload, why));
  EXPECT_NE(why.find("connect"), std::string::npos) << "no offer left: nothing listens; " << why;
}

TEST_F(DescriptorChannelTest, AFailingProviderIsReportedAndNothingStaysOpen) {
  makeFiles(2);
  const size_t before = openDescriptors();
  const DescriptorTicket failing = offer([this](std::vector<int>& descriptors, std::vector<uint8_t>&) {
    descriptors.push_back(dup(files[0]));  // the channel closes what a failing provider made
    return false;
  });
  std::vector<int> descriptors;
  std::vector<uint8_t> payload;
  std::string why;
  EXPECT_FALSE(DescriptorChannel::fetch(failing, descriptors, payload, why));
  EXPECT_NE(why.find("could not provide"), std::string::npos) << why;
  const DescriptorTicket working = offer(duplicatesOfFiles());
  for (int round = 0; round < 3; ++round) {
    ASSERT_TRUE(DescriptorChannel::fetch(working, descriptors, payload, why)) << why;
    for (int descriptor : descriptors) close(descriptor);
  }
  DescriptorChannel::instance().withdraw(failing.offer);
  DescriptorChannel::instance().withdraw(working.offer);
  EXPECT_EQ(openDescriptors(), before) << "the channel's socket, eventfd and every descriptor it sent are closed";
}

TEST_F(DescriptorChannelTest, AProcessWithoutTheOfferIsNotReached) {
  DescriptorTicket nobody;
  nobody.pid = getpid();
  nobody.offer = 1;
  std::vector<int> descriptors;
  std::vector<uint8_t> payload;
  std::string why;
  EXPECT_FALSE(DescriptorChannel::fetch(nobody, descriptors, payload, why));
  EXPECT_FALSE(why.empty());
}

}  // namespace
}  // namespace loom::core
