#include "level_zero/sysman/temperature.h"

#include "level_zero/sysman/sysman_device.h"

namespace loom::l0 {

namespace {
zes_temp_sensors_t translate(core::SensorKind kind) {
  switch (kind) {
    case core::SensorKind::Compute:
      return ZES_TEMP_SENSORS_GPU;  // the device's compute part, a CPU's cores too
    case core::SensorKind::Memory:
      return ZES_TEMP_SENSORS_MEMORY;
    default:
      return ZES_TEMP_SENSORS_GLOBAL;
  }
}
}  // namespace

ze_result_t zesDeviceEnumTemperatureSensors(zes_device_handle_t hDevice, uint32_t* pCount, zes_temp_handle_t* phTemperature) {
  ZES_REQUIRE_DEVICE(hDevice);
  ZE_REQUIRE_POINTER(pCount);
  return listHandles(sysmanOf(hDevice).temperatureSensors, pCount, phTemperature);
}

ze_result_t zesTemperatureGetProperties(zes_temp_handle_t hTemperature, zes_temp_properties_t* pProperties) {
  ZES_REQUIRE_OBJECT(TemperatureSensor, hTemperature);
  ZE_REQUIRE_POINTER(pProperties);
  const core::TemperatureSensor& sensor = object->description();
  pProperties->type = translate(sensor.kind);
  pProperties->onSubdevice = false;
  pProperties->subdeviceId = 0;
  pProperties->maxTemperature = sensor.maxCelsius;  // -1 where the system gives no critical point
  pProperties->isCriticalTempSupported = false;
  pProperties->isThreshold1Supported = false;
  pProperties->isThreshold2Supported = false;
  return ZE_RESULT_SUCCESS;
}

ze_result_t zesTemperatureGetState(zes_temp_handle_t hTemperature, double* pTemperature) {
  ZES_REQUIRE_OBJECT(TemperatureSensor, hTemperature);
  ZE_REQUIRE_POINTER(pTemperature);
  const auto celsius = object->telemetry().temperatureCelsius(object->index());
  if (!celsius) return readingFailed(__func__);
  *pTemperature = *celsius;
  return ZE_RESULT_SUCCESS;
}

}  // namespace loom::l0
