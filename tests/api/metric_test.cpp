// Metric groups, queries and streamers (zetMetric*): the work they count is the work the test
// issued, through the loader with real kernels.
#include <level_zero/zet_api.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "ze_test_helpers.h"

namespace loom::test {
namespace {

class MetricTest : public ZeTest {
 protected:
  void TearDown() override {
    if (streamer) EXPECT_ZE(zetMetricStreamerClose(streamer));
    for (zet_metric_query_handle_t query : queries) EXPECT_ZE(zetMetricQueryDestroy(query));
    for (zet_metric_query_pool_handle_t pool : queryPools) EXPECT_ZE(zetMetricQueryPoolDestroy(pool));
    EXPECT_ZE(zetContextActivateMetricGroups(context, device, 0, nullptr));
    ZeTest::TearDown();
  }

  zet_metric_group_properties_t properties(zet_metric_group_handle_t group) {
    zet_metric_group_properties_t p{ZET_STRUCTURE_TYPE_METRIC_GROUP_PROPERTIES};
    EXPECT_ZE(zetMetricGroupGetProperties(group, &p));
    return p;
  }

  zet_metric_group_handle_t group(const std::string& name) {
    for (zet_metric_group_handle_t candidate : listed<zet_metric_group_handle_t>(
             [&](uint32_t* count, zet_metric_group_handle_t* out) { return zetMetricGroupGet(device, count, out); }))
      if (properties(candidate).name == name) return candidate;
    ADD_FAILURE() << "no metric group " << name;
    return nullptr;
  }

  std::vector<std::string> metricNames(zet_metric_group_handle_t of) {
    std::vector<std::string> names;
    for (zet_metric_handle_t metric :
         listed<zet_metric_handle_t>([&](uint32_t* count, zet_metric_handle_t* out) { return zetMetricGet(of, count, out); })) {
      zet_metric_properties_t p{ZET_STRUCTURE_TYPE_METRIC_PROPERTIES};
      EXPECT_ZE(zetMetricGetProperties(metric, &p));
      names.push_back(p.name);
    }
    return names;
  }

  // Each report of `raw` as metric name -> value.
  std::vector<std::map<std::string, uint64_t>> reports(zet_metric_group_handle_t of, const std::vector<uint8_t>& raw) {
    uint32_t count = 0;
    EXPECT_ZE(zetMetricGroupCalculateMetricValues(of, ZET_METRIC_GROUP_CALCULATION_TYPE_METRIC_VALUES, raw.size(), raw.data(),
                                                  &count, nullptr));
    std::vector<zet_typed_value_t> values(count);
    EXPECT_ZE(zetMetricGroupCalculateMetricValues(of, ZET_METRIC_GROUP_CALCULATION_TYPE_METRIC_VALUES, raw.size(), raw.data(),
                                                  &count, values.data()));
    const std::vector<std::string> names = metricNames(of);
    std::vector<std::map<std::string, uint64_t>> out(count / names.size());
    for (uint32_t i = 0; i < count; ++i) {
      const zet_typed_value_t& value = values[i];
      out[i / names.size()][names[i % names.size()]] = value.type == ZET_VALUE_TYPE_UINT32 ? value.value.ui32 : value.value.ui64;
    }
    return out;
  }

  zet_metric_query_handle_t query(zet_metric_group_handle_t of) {
    zet_metric_query_pool_desc_t desc{ZET_STRUCTURE_TYPE_METRIC_QUERY_POOL_DESC, nullptr, ZET_METRIC_QUERY_POOL_TYPE_PERFORMANCE, 2};
    zet_metric_query_pool_handle_t pool = nullptr;
    EXPECT_ZE(zetMetricQueryPoolCreate(context, device, of, &desc, &pool));
    if (pool) queryPools.push_back(pool);
    zet_metric_query_handle_t handle = nullptr;
    EXPECT_ZE(zetMetricQueryCreate(pool, 1, &handle));
    if (handle) queries.push_back(handle);
    return handle;
  }

  std::vector<uint8_t> queryData(zet_metric_query_handle_t of) {
    size_t size = 0;
    EXPECT_ZE(zetMetricQueryGetData(of, &size, nullptr));
    std::vector<uint8_t> raw(size);
    EXPECT_ZE(zetMetricQueryGetData(of, &size, raw.data()));
    raw.resize(size);
    return raw;
  }

  // Appends known work: one launch of 4 groups of 64, a copy of 256 bytes, a fill of 1024.
  void appendKnownWork(ze_command_list_handle_t on) {
    float* a = shared<float>(256);
    float* b = shared<float>(256);
    float* sum = shared<float>(256);
    ze_kernel_handle_t add = apiKernel("add_vectors");
    setArguments(add, a, b, sum);
    launch(add, 4, 64, on);
    ASSERT_ZE(zeCommandListAppendBarrier(on, nullptr, 0, nullptr));
    ASSERT_ZE(zeCommandListAppendMemoryCopy(on, b, a, 256, nullptr, 0, nullptr));
    const uint32_t pattern = 7;
    ASSERT_ZE(zeCommandListAppendMemoryFill(on, sum, &pattern, sizeof(pattern), 1024, nullptr, 0, nullptr));
  }

  zet_metric_streamer_handle_t streamer = nullptr;
  std::vector<zet_metric_query_pool_handle_t> queryPools;
  std::vector<zet_metric_query_handle_t> queries;
};

TEST_F(MetricTest, DeviceHasAnEventBasedAndATimeBasedGroupInTwoDomains) {
  const zet_metric_group_properties_t work = properties(group("EngineWork"));
  EXPECT_EQ(ZET_METRIC_GROUP_SAMPLING_TYPE_FLAG_EVENT_BASED, work.samplingType);
  EXPECT_EQ((std::vector<std::string>{"Time", "KernelLaunches", "WorkGroups", "WorkItems", "CopiedBytes", "FilledBytes"}),
            metricNames(group("EngineWork")));
  EXPECT_EQ(6u, work.metricCount);
  const zet_metric_group_properties_t activity = properties(group("EngineActivity"));
  EXPECT_EQ(ZET_METRIC_GROUP_SAMPLING_TYPE_FLAG_TIME_BASED, activity.samplingType);
  EXPECT_NE(work.domain, activity.domain);
  EXPECT_EQ((std::vector<std::string>{"Timestamp", "Interval", "KernelLaunches", "WorkGroups", "WorkItems", "CopiedBytes",
                                      "FilledBytes", "StreamerMarker"}),
            metricNames(group("EngineActivity")));

  uint32_t count = 0;
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, zetMetricGroupGet(nullptr, &count, nullptr));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zetMetricGroupGet(device, nullptr, nullptr));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zetMetricGroupGetProperties(group("EngineWork"), nullptr));
}

TEST_F(MetricTest, ActivationTakesOneGroupPerDomain) {
  zet_metric_group_handle_t both[] = {group("EngineWork"), group("EngineActivity")};
  EXPECT_ZE(zetContextActivateMetricGroups(context, device, 2, both));
  zet_metric_group_handle_t twice[] = {group("EngineWork"), group("EngineWork")};
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zetContextActivateMetricGroups(context, device, 2, twice));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_SIZE, zetContextActivateMetricGroups(context, device, 1, nullptr));
  EXPECT_ZE(zetContextActivateMetricGroups(context, device, 0, nullptr));
}

TEST_F(MetricTest, QueryCountsTheWorkItBrackets) {
  zet_metric_group_handle_t work = group("EngineWork");
  ASSERT_ZE(zetContextActivateMetricGroups(context, device, 1, &work));
  zet_metric_query_handle_t counted = query(work);
  ze_command_list_handle_t recorded = regularList();
  ze_event_handle_t done = hostVisibleEvent();
  ASSERT_ZE(zetCommandListAppendMetricQueryBegin(recorded, counted));
  appendKnownWork(recorded);
  ASSERT_ZE(zetCommandListAppendMetricMemoryBarrier(recorded));
  ASSERT_ZE(zetCommandListAppendMetricQueryEnd(recorded, counted, done, 0, nullptr));
  ASSERT_ZE(zeCommandListClose(recorded));
  std::vector<uint8_t> raw(1024);
  size_t size = raw.size();
  EXPECT_EQ(ZE_RESULT_NOT_READY, zetMetricQueryGetData(counted, &size, raw.data())) << "its end has not run";

  for (int run = 0; run < 2; ++run) {
    execute(recorded);
    ASSERT_ZE(zeEventHostSynchronize(done, kTimeout));
    const auto values = reports(work, queryData(counted));
    ASSERT_EQ(1u, values.size());
    EXPECT_GT(values[0].at("Time"), 0u);
    EXPECT_EQ(1u, values[0].at("KernelLaunches"));
    EXPECT_EQ(4u, values[0].at("WorkGroups"));
    EXPECT_EQ(256u, values[0].at("WorkItems"));
    EXPECT_EQ(256u, values[0].at("CopiedBytes"));
    EXPECT_EQ(1024u, values[0].at("FilledBytes"));
    ASSERT_ZE(zetMetricQueryReset(counted));
    ASSERT_ZE(zeEventHostReset(done));
    size = raw.size();
    EXPECT_EQ(ZE_RESULT_NOT_READY, zetMetricQueryGetData(counted, &size, raw.data())) << "reset";
  }
}

TEST_F(MetricTest, QueryOnAnImmediateListCountsOnlyItsWork) {
  zet_metric_group_handle_t work = group("EngineWork");
  zet_metric_query_handle_t counted = query(work);
  ASSERT_ZE(zetCommandListAppendMetricQueryBegin(list, counted));
  ASSERT_ZE(zetCommandListAppendMetricQueryEnd(list, counted, nullptr, 0, nullptr));
  const auto values = reports(work, queryData(counted));
  ASSERT_EQ(1u, values.size());
  EXPECT_EQ(0u, values[0].at("KernelLaunches"));
  EXPECT_EQ(0u, values[0].at("CopiedBytes"));
}

TEST_F(MetricTest, QueryPoolsTakeEventBasedGroupsOfTheirDevice) {
  zet_metric_query_pool_desc_t desc{ZET_STRUCTURE_TYPE_METRIC_QUERY_POOL_DESC, nullptr, ZET_METRIC_QUERY_POOL_TYPE_PERFORMANCE, 1};
  zet_metric_query_pool_handle_t pool = nullptr;
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zetMetricQueryPoolCreate(context, device, group("EngineActivity"), &desc, &pool));
  desc.count = 0;
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_SIZE, zetMetricQueryPoolCreate(context, device, group("EngineWork"), &desc, &pool));
  desc.count = 1;
  desc.type = ZET_METRIC_QUERY_POOL_TYPE_EXECUTION;
  EXPECT_EQ(ZE_RESULT_ERROR_UNSUPPORTED_ENUMERATION, zetMetricQueryPoolCreate(context, device, group("EngineWork"), &desc, &pool));
  desc.type = ZET_METRIC_QUERY_POOL_TYPE_PERFORMANCE;
  ASSERT_ZE(zetMetricQueryPoolCreate(context, device, group("EngineWork"), &desc, &pool));
  queryPools.push_back(pool);
  zet_metric_query_handle_t outside = nullptr;
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zetMetricQueryCreate(pool, 1, &outside));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zetMetricQueryCreate(pool, 0, nullptr));
}

TEST_F(MetricTest, CalculationReadsOnlyReportsOfItsGroup) {
  zet_metric_group_handle_t work = group("EngineWork");
  zet_metric_query_handle_t counted = query(work);
  ASSERT_ZE(zetCommandListAppendMetricQueryBegin(list, counted));
  appendKnownWork(list);
  ASSERT_ZE(zetCommandListAppendMetricQueryEnd(list, counted, nullptr, 0, nullptr));
  std::vector<uint8_t> raw = queryData(counted);
  uint32_t count = 0;
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT,
            zetMetricGroupCalculateMetricValues(group("EngineActivity"), ZET_METRIC_GROUP_CALCULATION_TYPE_METRIC_VALUES, raw.size(),
                                                raw.data(), &count, nullptr));
  const std::vector<uint8_t> garbage(raw.size(), 0xab);
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT,
            zetMetricGroupCalculateMetricValues(work, ZET_METRIC_GROUP_CALCULATION_TYPE_METRIC_VALUES, garbage.size(),
                                                garbage.data(), &count, nullptr));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ENUMERATION,
            zetMetricGroupCalculateMetricValues(work, zet_metric_group_calculation_type_t(7), raw.size(), raw.data(), &count, nullptr));

  // Two reports and zeros after them (a buffer sized for more): the maximum is one set.
  std::vector<uint8_t> two = raw;
  two.insert(two.end(), raw.begin(), raw.end());
  two.resize(two.size() + 64, 0);
  ASSERT_EQ(2u, reports(work, two).size());
  count = 0;
  ASSERT_ZE(zetMetricGroupCalculateMetricValues(work, ZET_METRIC_GROUP_CALCULATION_TYPE_MAX_METRIC_VALUES, two.size(), two.data(),
                                                &count, nullptr));
  EXPECT_EQ(6u, count);

  uint32_t sets = 0, total = 0;
  ASSERT_ZE(zetMetricGroupCalculateMultipleMetricValuesExp(work, ZET_METRIC_GROUP_CALCULATION_TYPE_METRIC_VALUES, two.size(),
                                                           two.data(), &sets, &total, nullptr, nullptr));
  ASSERT_EQ(1u, sets);
  ASSERT_EQ(12u, total);
  std::vector<uint32_t> perSet(sets);
  std::vector<zet_typed_value_t> values(total);
  ASSERT_ZE(zetMetricGroupCalculateMultipleMetricValuesExp(work, ZET_METRIC_GROUP_CALCULATION_TYPE_METRIC_VALUES, two.size(),
                                                           two.data(), &sets, &total, perSet.data(), values.data()));
  EXPECT_EQ(12u, perSet[0]);
  EXPECT_EQ(ZET_VALUE_TYPE_UINT64, values[2].type);
  EXPECT_EQ(4u, values[2].value.ui64) << "WorkGroups of the first report";
}

TEST_F(MetricTest, StreamerSamplesTheWorkAndTheMarkersItPasses) {
  zet_metric_group_handle_t activity = group("EngineActivity");
  ASSERT_ZE(zetContextActivateMetricGroups(context, device, 1, &activity));
  ze_event_handle_t ready = hostVisibleEvent();
  zet_metric_streamer_desc_t desc{ZET_STRUCTURE_TYPE_METRIC_STREAMER_DESC, nullptr, 3, 1000};
  ASSERT_ZE(zetMetricStreamerOpen(context, device, activity, &desc, ready, &streamer));
  EXPECT_EQ(100000u, desc.samplingPeriod) << "raised to the shortest period the streamer samples at";
  EXPECT_EQ(3u, desc.notifyEveryNReports);
  ASSERT_ZE(zeEventHostSynchronize(ready, kTimeout)) << "three reports signal the event";

  appendKnownWork(list);
  ASSERT_ZE(zetCommandListAppendMetricStreamerMarker(list, streamer, 7));

  // Reads until a report carries the marker: every report after the work was issued counts it.
  std::vector<std::map<std::string, uint64_t>> all;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (std::none_of(all.begin(), all.end(), [](const auto& report) { return report.at("StreamerMarker") == 7; }) &&
         std::chrono::steady_clock::now() < deadline) {
    size_t size = 0;
    ASSERT_ZE(zetMetricStreamerReadData(streamer, UINT32_MAX, &size, nullptr));
    std::vector<uint8_t> raw(size);
    ASSERT_ZE(zetMetricStreamerReadData(streamer, UINT32_MAX, &size, raw.data()));
    raw.resize(size);
    if (!raw.empty())
      for (const auto& report : reports(activity, raw)) all.push_back(report);
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ASSERT_FALSE(all.empty());
  uint64_t launches = 0, groups = 0, copied = 0, filled = 0;
  for (size_t i = 0; i < all.size(); ++i) {
    launches += all[i].at("KernelLaunches");
    groups += all[i].at("WorkGroups");
    copied += all[i].at("CopiedBytes");
    filled += all[i].at("FilledBytes");
    EXPECT_GT(all[i].at("Interval"), 0u);
    if (i > 0) EXPECT_EQ(all[i].at("Timestamp"), all[i - 1].at("Timestamp") + all[i].at("Interval"));
  }
  EXPECT_EQ(7u, all.back().at("StreamerMarker"));
  EXPECT_EQ(1u, launches);
  EXPECT_EQ(4u, groups);
  EXPECT_EQ(256u, copied);
  EXPECT_EQ(1024u, filled);
}

TEST_F(MetricTest, StreamerReadsGiveWholeReports) {
  zet_metric_group_handle_t activity = group("EngineActivity");
  ASSERT_ZE(zetContextActivateMetricGroups(context, device, 1, &activity));
  zet_metric_streamer_desc_t desc{ZET_STRUCTURE_TYPE_METRIC_STREAMER_DESC, nullptr, 4, 100000};
  ASSERT_ZE(zetMetricStreamerOpen(context, device, activity, &desc, nullptr, &streamer));
  size_t one = 0, three = 0;
  ASSERT_ZE(zetMetricStreamerReadData(streamer, 1, &one, nullptr));
  ASSERT_ZE(zetMetricStreamerReadData(streamer, 3, &three, nullptr));
  EXPECT_EQ(3 * one, three) << "the size of the most a read of that many reports gives";
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  std::vector<uint8_t> raw(one * 3 / 2);
  size_t size = raw.size();
  ASSERT_ZE(zetMetricStreamerReadData(streamer, UINT32_MAX, &size, raw.data()));
  EXPECT_EQ(one, size) << "only whole reports that fit";
}

TEST_F(MetricTest, StreamersNeedAnActiveTimeBasedGroupAndAFreeDevice) {
  zet_metric_group_handle_t activity = group("EngineActivity");
  zet_metric_streamer_desc_t desc{ZET_STRUCTURE_TYPE_METRIC_STREAMER_DESC, nullptr, 10, 1000000};
  zet_metric_streamer_handle_t other = nullptr;
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zetMetricStreamerOpen(context, device, activity, &desc, nullptr, &other))
      << "not active";
  zet_metric_group_handle_t work = group("EngineWork");
  zet_metric_group_handle_t both[] = {work, activity};
  ASSERT_ZE(zetContextActivateMetricGroups(context, device, 2, both));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zetMetricStreamerOpen(context, device, work, &desc, nullptr, &other))
      << "event-based";
  ASSERT_ZE(zetMetricStreamerOpen(context, device, activity, &desc, nullptr, &streamer));
  EXPECT_EQ(ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE, zetMetricStreamerOpen(context, device, activity, &desc, nullptr, &other));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zetMetricStreamerReadData(streamer, 1, nullptr, nullptr));
}

}  // namespace
}  // namespace loom::test
