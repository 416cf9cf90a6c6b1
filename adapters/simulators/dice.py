"""Simulated Bluetooth dice, and a bleak backend that reaches them instead of a radio.

``Air`` is the room the dice are in. ``Air.backends()`` gives a scanner and a client class to
hand to ``BleakScanner(backend=…)`` and ``BleakClient(backend=…)``: the station under test runs
its real bleak code, only the radio is replaced. The dice behave as the real ones do, from
their documented protocols: a Pixels die answers ``WhoAreYou`` with ``IAmADie`` (chunked, or
22 bytes on legacy firmware and the legacy service), notifies each change of its roll state
(rolling, then rolled) and answers ``Blink`` with ``BlinkAck``; while no host is connected it
advertises as its firmware does (service data under 0x180A), its roll state included. A
GoDice notifies ``R`` when it starts to roll and ``S``
with its acceleration when it settles, answers ``3`` with its battery, and keeps nothing of a
roll made while no host listened. A die carried out of range drops its connection, stops
advertising and refuses connections until it is back.
"""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass, field
from typing import Any, TypeVar

from bleak.backends.characteristic import BleakGATTCharacteristic
from bleak.backends.client import BaseBleakClient, NotifyCallback
from bleak.backends.descriptor import BleakGATTDescriptor
from bleak.backends.device import BLEDevice
from bleak.backends.scanner import AdvertisementData, BaseBleakScanner
from bleak.backends.service import BleakGATTService, BleakGATTServiceCollection
from bleak.exc import BleakError

from adapters import godice_protocol as go
from adapters import pixels_protocol as px

D = TypeVar("D", bound="SimulatedDie")

ADVERTISE_EVERY = 0.05
"""Seconds between a free die's adverts (real dice advertise every 100 ms to 1 s or so)."""


@dataclass
class SimulatedDie:
    """What every simulated die shares: an address, a name, a GATT service with a notify and a
    write characteristic, and whether it is in range and who is connected."""

    address: str
    name: str
    service: str
    notify: str
    write: str
    in_range: bool = True
    connectable: bool = True  # False: at the edge of range, heard but no connection holds
    listener: NotifyCallback | None = None
    host: FakeClient | None = None
    heard: list[bytes] = field(default_factory=list)  # what hosts wrote, oldest first

    def services(self) -> BleakGATTServiceCollection:
        collection = BleakGATTServiceCollection()
        service = BleakGATTService(None, 1, self.service)
        collection.add_service(service)
        for handle, (uuid, props) in enumerate(
            ((self.notify, ["notify"]), (self.write, ["write", "write-without-response"])), 2
        ):
            char = BleakGATTCharacteristic(None, handle, uuid, props, lambda: 20, service)  # type: ignore[arg-type]
            collection.add_characteristic(char)
        return collection

    def send(self, data: bytes) -> None:
        """Notify the connected host, as the radio does: after this call returns."""
        if self.listener is not None:
            asyncio.get_running_loop().call_soon(self.listener, bytearray(data))

    def written(self, data: bytes) -> None:
        self.heard.append(data)
        self.answer(data)

    def answer(self, data: bytes) -> None:
        """What the die does with a host's message."""

    def advert(self) -> AdvertisementData:
        return AdvertisementData(
            local_name=self.name, manufacturer_data={}, service_data={},
            service_uuids=[self.service], tx_power=None, rssi=-60, platform_data=(),
        )  # fmt: skip


LEDS = {px.DieType.D4: 6, px.DieType.D6: 6, px.DieType.D8: 8, px.DieType.D10: 10,
        px.DieType.D00: 10, px.DieType.D12: 12, px.DieType.D20: 20, px.DieType.D6_PIPPED: 21,
        px.DieType.D6_FUDGE: 6}  # fmt: skip
"""The LEDs of each type of Pixels die (pixels-js, pixels-core-animation 1.3.0,
``DiceUtils.getLEDCount``): a d4 is built on a d6's board, a pipped d6 lights each pip."""


@dataclass
class SimulatedPixel(SimulatedDie):
    identity: px.Identity = field(
        default_factory=lambda: px.Identity(
            1, px.DieType.D6, 6, 1_720_000_000, "", px.RollState.ON_FACE, 0, 90, False
        )
    )
    legacy: bool = False

    @classmethod
    def make(
        cls, pixel_id: int, name: str, kind: px.DieType = px.DieType.D6, *, legacy: bool = False
    ) -> SimulatedPixel:
        leds = LEDS[kind]
        identity = px.Identity(pixel_id, kind, leds, 1_720_000_000, name, px.RollState.ON_FACE,
                               0, 90, False)  # fmt: skip
        uuids = ((px.LEGACY_SERVICE, px.LEGACY_NOTIFY, px.LEGACY_WRITE) if legacy
                 else (px.SERVICE, px.NOTIFY, px.WRITE))  # fmt: skip
        address = f"PX:{pixel_id:08X}"
        return cls(address, name, *uuids, identity=identity, legacy=legacy)

    @property
    def blinks(self) -> int:
        return sum(data[:1] == bytes([px.MessageType.BLINK]) for data in self.heard)

    def answer(self, data: bytes) -> None:
        match data[:1]:
            case b"\x01":
                self.send(px.i_am_a_die(self.identity, legacy=self.legacy))
            case b"\x17":
                self.send(px.roll_state(self.identity.roll_state, self.identity.face_index))
            case b"\x1d":
                self.send(bytes([px.MessageType.BLINK_ACK, 0]))

    def _state(self, state: px.RollState, index: int) -> None:
        self.identity = px.Identity(**{**self.identity.__dict__, "roll_state": state,
                                       "face_index": index})  # fmt: skip
        self.send(px.roll_state(state, index))

    def roll(self, number: int) -> None:
        """Tumble, then land with ``number`` up (told if connected, advertised if not)."""
        index = next(i for i in range(20) if self.identity.face(i) == number)
        self._state(px.RollState.ROLLING, self.identity.face_index)
        self._state(px.RollState.ROLLED, index)

    def advert(self) -> AdvertisementData:
        """Advert and scan response together, as bleak gathers them: the firmware lists 0x180A
        in the advert with its manufacturer data, and its own service in the scan response
        with the service data, keyed 0x180A (DiceFirmware ``src/bluetooth/bluetooth_stack.cpp``,
        ``initAdvertising``)."""
        manufacturer, services = px.advertised(self.identity, legacy=self.legacy)
        return AdvertisementData(
            local_name=self.name, manufacturer_data=manufacturer, service_data=services,
            service_uuids=[px.DEVICE_INFORMATION, self.service], tx_power=None, rssi=-55,
            platform_data=(),
        )  # fmt: skip


@dataclass
class SimulatedGoDice(SimulatedDie):
    shell: go.Shell = go.Shell.D6
    battery: int = 80

    @classmethod
    def make(cls, tag: str, shell: go.Shell = go.Shell.D6) -> SimulatedGoDice:
        name = f"{go.NAME_PREFIX}{tag}_K_v04"
        return cls(f"GD:{tag}", name, go.SERVICE, go.NOTIFY, go.WRITE, shell=shell)

    @property
    def blinks(self) -> int:
        return sum(data[:1] == bytes([go.PULSE]) for data in self.heard)

    def answer(self, data: bytes) -> None:
        if data == go.request_battery():
            self.send(go.battery(self.battery))

    def roll(self, number: int) -> None:
        self.send(b"R")
        self.send(go.settled(go.vector(number, self.shell)))


class Air:
    """The room: the dice in it, and the scanners listening."""

    def __init__(self) -> None:
        self.dice: dict[str, SimulatedDie] = {}
        self.scanners: set[FakeScanner] = set()
        self._advertising: asyncio.Task[None] | None = None

    def add(self, die: D) -> D:
        self.dice[die.address] = die
        return die

    def backends(self) -> tuple[type[BaseBleakScanner], type[BaseBleakClient]]:
        air = self

        class Scanner(FakeScanner):
            room = air

        class Client(FakeClient):
            room = air

        return Scanner, Client

    def carry_away(self, die: SimulatedDie) -> None:
        """Out of range: the host loses the die at once, and it is not heard until back."""
        die.in_range = False
        host = die.host
        if host is not None:
            host.lost()

    def bring_back(self, die: SimulatedDie) -> None:
        die.in_range = True

    def advertise(self) -> None:
        """Every die in range with no host connected advertises once to every scanner."""
        for die in self.dice.values():
            if die.in_range and die.host is None:
                device = BLEDevice(die.address, die.name, None)
                for scanner in list(self.scanners):
                    scanner.heard(device, die.advert())

    async def _keep_advertising(self) -> None:
        while True:
            self.advertise()
            await asyncio.sleep(ADVERTISE_EVERY)

    def listen(self, scanner: FakeScanner) -> None:
        self.scanners.add(scanner)
        if self._advertising is None or self._advertising.done():
            self._advertising = asyncio.get_running_loop().create_task(self._keep_advertising())

    def stop_listening(self, scanner: FakeScanner) -> None:
        self.scanners.discard(scanner)
        if not self.scanners and self._advertising is not None:
            self._advertising.cancel()


class FakeScanner(BaseBleakScanner):
    room: Air

    def __init__(
        self, detection_callback: Any, service_uuids: list[str] | None, *args: Any, **kw: Any
    ) -> None:
        super().__init__(detection_callback, service_uuids)

    def heard(self, device: BLEDevice, advert: AdvertisementData) -> None:
        if self.is_allowed_uuid(advert.service_uuids):
            seen = self.create_or_update_device(
                device.address, device.address, device.name, None, advert
            )
            self.call_detection_callbacks(seen, advert)

    async def start(self) -> None:
        self.seen_devices = {}
        self.room.listen(self)

    async def stop(self) -> None:
        self.room.stop_listening(self)


class FakeClient(BaseBleakClient):
    room: Air

    def __init__(self, address_or_ble_device: BLEDevice | str, **kwargs: Any) -> None:
        super().__init__(
            address_or_ble_device,
            disconnected_callback=kwargs.pop("disconnected_callback", None),
            timeout=kwargs.pop("timeout", 10.0),
        )
        self._die: SimulatedDie | None = None

    @property
    def name(self) -> str:
        return self.room.dice[self.address].name

    @property
    def mtu_size(self) -> int:
        return 23

    async def connect(self, pair: bool, **kwargs: Any) -> None:
        await asyncio.sleep(0.005)  # a connection takes a radio exchange or two
        die = self.room.dice.get(self.address)
        if die is None or not die.in_range:
            raise BleakError(f"device {self.address} not found")
        if not die.connectable:
            raise BleakError(f"device {self.address}: connection failed to be established")
        if die.host is not None:
            raise BleakError(f"device {self.address} is connected to another host")
        die.host, self._die = self, die
        self.services = die.services()

    def lost(self) -> None:
        """The die went out of range: the connection ends, and the owner is told."""
        self._let_go()
        if self._disconnected_callback is not None:
            asyncio.get_running_loop().call_soon(self._disconnected_callback)

    def _let_go(self) -> None:
        if self._die is not None:
            self._die.host = self._die.listener = None
        self._die = None
        self.services = None

    async def disconnect(self) -> None:
        self._let_go()

    async def pair(self, *args: Any, **kwargs: Any) -> None:
        """Dice pair with no bonding."""

    async def unpair(self) -> None:
        """Dice pair with no bonding."""

    @property
    def is_connected(self) -> bool:
        return self._die is not None

    def _connected(self) -> SimulatedDie:
        if self._die is None:
            raise BleakError("Not connected")
        return self._die

    async def read_gatt_char(
        self, characteristic: BleakGATTCharacteristic, **kwargs: Any
    ) -> bytearray:
        raise BleakError(f"{characteristic.uuid} is not readable")

    async def read_gatt_descriptor(
        self, descriptor: BleakGATTDescriptor, **kwargs: Any
    ) -> bytearray:
        raise BleakError("the dice have no descriptors to read")

    async def write_gatt_char(
        self, characteristic: BleakGATTCharacteristic, data: Any, response: bool
    ) -> None:
        die = self._connected()
        if characteristic.uuid != die.write:
            raise BleakError(f"{characteristic.uuid} is not writable")
        die.written(bytes(data))

    async def write_gatt_descriptor(self, descriptor: BleakGATTDescriptor, data: Any) -> None:
        raise BleakError("the dice have no descriptors to write")

    async def start_notify(
        self, characteristic: BleakGATTCharacteristic, callback: NotifyCallback, **kwargs: Any
    ) -> None:
        die = self._connected()
        if characteristic.uuid != die.notify:
            raise BleakError(f"{characteristic.uuid} does not notify")
        die.listener = callback

    async def stop_notify(self, characteristic: BleakGATTCharacteristic) -> None:
        self._connected().listener = None


def roll_any(die: SimulatedDie, rng: random.Random) -> int:
    """Roll ``die`` to a face chosen by ``rng``; the number up."""
    if isinstance(die, SimulatedPixel):
        number = rng.randint(1, die.identity.sides or 6)
        die.roll(number)
        return number
    assert isinstance(die, SimulatedGoDice)
    number = rng.choice(go.numbers(die.shell))
    die.roll(number)
    return number
