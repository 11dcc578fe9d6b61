#ifndef PUSHDECK_CMOSQUITTO_SHIM_H
#define PUSHDECK_CMOSQUITTO_SHIM_H
#include <mosquitto.h>
#include <mqtt_protocol.h>
#endif
