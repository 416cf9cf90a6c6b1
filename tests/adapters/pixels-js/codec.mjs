// Systemic Games' own Pixels code, run on cases Seize's tests hand it (JSON on stdin): the
// messages serialised and deserialised by @systemic-games/pixels-core-connect (the library
// pixels-web-connect, which the player page serves, is built on), the faces by
// pixels-core-animation's DiceUtils, and its tables of values. Answers JSON on stdout.
//
// The adverts: the official scanner (getScannedPixel in react-native-pixels-connect) is not
// published on npm, so "advert" below reads an advert as that scanner does (pixels-js
// packages/react-native-pixels-connect/src/getScannedPixel.ts, commit 3fa3c1a7), in its own
// words, with the official packages' ids, tables and DiceUtils for every value it names.

import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const connect = require("@systemic-games/pixels-core-connect");
const animation = require("@systemic-games/pixels-core-animation");
const utils = require("@systemic-games/pixels-core-utils");
const { deserializeChunkedMessage } = require(
  "@systemic-games/pixels-core-connect/dist/cjs/ChunkMessage.js");

const hex = (view) => Buffer.from(view.buffer, view.byteOffset, view.byteLength).toString("hex");
const view = (text) => new DataView(Uint8Array.from(Buffer.from(text, "hex")).buffer);
const assign = (message, fields) => utils.safeAssign(message, fields);
const { serializer } = connect;
const utf8 = (text) => Buffer.byteLength(text, "utf8");

/** Serialise a message (or a bare message type) with the library's serializer. */
function serialised(message) {
  const raw = serializer.serialize(message);  // a bare type comes back as a Uint8Array
  return Buffer.from(ArrayBuffer.isView(raw) ? raw : new Uint8Array(raw)).toString("hex");
}

/** The chunked IAmADie as the firmware sends it (DiceFirmware src/handlers/who_are_you.cpp,
 * src/bluetooth/bluetooth_messages.h): each chunk serialised by the library at its place, the
 * chunks sized as the firmware's structs are, so that the die info ends with the run mode the
 * library does not read and each name is 31 bytes, padded with zeros. */
function iAmADie(die) {
  const chunks = [
    assign(new connect.VersionInfoChunk(), { firmwareVersion: 0x100,
      buildTimestamp: die.buildTimestamp, settingsVersion: 0x100, compatStandardApiVersion: 0x100,
      compatExtendedApiVersion: 0x100, compatManagementApiVersion: 0x100 }),
    assign(new connect.DieInfoChunk(), { chunkSize: 10, pixelId: die.pixelId, chipModel: 1,
      dieType: die.dieType, ledCount: die.ledCount, colorway: 0 }),
    assign(new connect.CustomDesignAndColorNameChunk(), { chunkSize: 32, name: "" }),
    assign(new connect.DieNameChunk(), { chunkSize: 32, name: die.name }),
    new connect.SettingsInfoChunk(),
    assign(new connect.StatusInfoChunk(), { batteryLevelPercent: die.batteryLevelPercent,
      batteryState: die.batteryState, rollState: die.rollState,
      currentFaceIndex: die.currentFaceIndex }),
  ];
  const size = 1 + chunks.reduce((sum, chunk) => sum + chunk.chunkSize, 0);
  const out = new DataView(new ArrayBuffer(size));
  out.setUint8(0, connect.MessageTypeValues.iAmADie);
  let at = 1;
  for (const chunk of chunks) {
    utils.serialize(chunk, { dataView: out, byteOffset: at });
    at += chunk.chunkSize;
  }
  return hex(out);
}

/** Deserialise a die's notification as Pixel._internalDeserializeMessage does. */
function deserialised(text) {
  const data = view(text);
  if (data.getUint8(0) === connect.MessageTypeValues.iAmADie
      && data.byteLength !== connect.LegacyIAmADie.expectedSize) {
    const message = new connect.IAmADie();
    deserializeChunkedMessage(data, message);
    return { kind: "IAmADie", ...message.dieInfo, ...message.versionInfo, ...message.statusInfo,
      name: message.dieName.name };
  }
  const message = serializer.deserializeMessage(data);
  return typeof message === "string" ? { kind: message }
    : { kind: message.constructor.name, ...message };
}

/** An advert as the official scanner reads it (see the head of this file). */
function advert({ services, manufacturersData, servicesData }) {
  const { die, legacyDie } = connect.PixelsBluetoothIds;
  if (!services.includes(die.service) && !services.includes(legacyDie.service)) return null;
  const manufacturer = manufacturersData[0];
  const service = servicesData[0];
  const hasServiceData = !!service && service.data.length / 2 >= 8;
  const isOldAdv = !service && manufacturer?.data.length / 2 === 7;
  if (!(isOldAdv || hasServiceData) || !manufacturer || manufacturer.data.length / 2 < 5) {
    return null;
  }
  const manuf = view(manufacturer.data);
  let read;
  if (hasServiceData) {
    const data = view(service.data);
    read = { pixelId: data.getUint32(0, true), firmwareMs: 1000 * data.getUint32(4, true),
      ledCount: manuf.getUint8(0), dieTypeValue: manuf.getUint8(1) >> 4,
      rollStateValue: manuf.getUint8(2), faceIndex: manuf.getUint8(3),
      batteryLevel: manuf.getUint8(4) & 0x7f, isCharging: (manuf.getUint8(4) & 0x80) > 0 };
  } else {
    read = { pixelId: manuf.getUint32(0, true), firmwareMs: 1656633600000,
      ledCount: (manufacturer.companyId >> 8) & 0xff, dieTypeValue: 0,
      rollStateValue: manuf.getUint8(4), faceIndex: manuf.getUint8(5),
      batteryLevel: Math.round((manuf.getUint8(6) / 255) * 100), isCharging: false };
  }
  if (!read.pixelId) return null;
  const dieType = read.dieTypeValue
    ? utils.getValueKeyName(read.dieTypeValue, animation.PixelDieTypeValues) ?? "unknown"
    : animation.DiceUtils.estimateDieType(read.ledCount);
  return { pixelId: read.pixelId, ledCount: read.ledCount, dieType,
    firmwareDate: read.firmwareMs / 1000, batteryLevel: read.batteryLevel,
    isCharging: read.isCharging, currentFaceIndex: read.faceIndex,
    rollState: utils.getValueKeyName(read.rollStateValue, connect.PixelRollStateValues)
      ?? "unknown",
    currentFace: animation.DiceUtils.faceFromIndex(read.faceIndex, dieType, read.firmwareMs) };
}

const cases = JSON.parse(await new Promise((done) => {
  let text = "";
  process.stdin.on("data", (chunk) => { text += chunk; }).on("end", () => done(text));
}));

process.stdout.write(JSON.stringify({
  values: {
    messageType: connect.MessageTypeValues, rollState: connect.PixelRollStateValues,
    batteryState: connect.PixelBatteryStateValues, dieType: animation.PixelDieTypeValues,
  },
  ids: connect.PixelsBluetoothIds,
  whoAreYou: serialised("whoAreYou"),
  requestRollState: serialised("requestRollState"),
  requestBatteryLevel: serialised("requestBatteryLevel"),
  rollState: cases.rollState.map(([state, faceIndex]) =>
    serialised(assign(new connect.RollState(), { state, faceIndex }))),
  batteryLevel: cases.batteryLevel.map(([levelPercent, state]) =>
    serialised(assign(new connect.BatteryLevel(), { levelPercent, state }))),
  legacyIAmADie: cases.iAmADie.map(({ name, ...die }) =>
    serialised(assign(new connect.LegacyIAmADie(), die))),
  iAmADie: cases.iAmADie.map(iAmADie),
  blink: cases.blink.map((fields) => serialised(assign(new connect.Blink(), fields))),
  // What the player page sends: pixel.blink(Color.brightBlue, { count: 3, duration: 1500 }),
  // with Pixel.blink's own defaults for the rest (Pixel.ts, blink()).
  pageBlink: serialised(assign(new connect.Blink(), { count: 3, duration: 1500,
    color: animation.Color32Utils.toColor32(animation.Color.brightBlue), fade: 0,
    faceMask: animation.AnimConstants.faceMaskAll, loopCount: 1 })),
  deserialised: cases.deserialise.map(deserialised),
  faces: cases.faces.map(([index, dieTypeValue, firmwareMs]) => animation.DiceUtils
    .faceFromIndex(index, utils.getValueKeyName(dieTypeValue, animation.PixelDieTypeValues),
      firmwareMs)),
  adverts: cases.adverts.map(advert),
}));
