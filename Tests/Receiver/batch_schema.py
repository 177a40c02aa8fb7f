"""The sync batch JSON schema, version 1, as checks: Sources/HealthSync/Serialization/SyncBatchSchema.docc in code.

`problem(document)` returns None for a valid batch, else the first problem as "at PATH: what is wrong". Every
documented field is required with its type, nothing undocumented is allowed, timestamps are ISO 8601 with a
numeric offset (milliseconds optional), UUIDs upper-case canonical, numbers finite. Hand-written rather than a
JSON Schema validator: a year of data is 130,000 samples, and a generic validator needs minutes for that.
"""

import math
import re

UUID = re.compile(r"[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}\Z")
TIMESTAMP = re.compile(
    r"[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])T([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]"
    r"(\.[0-9]{3})?[+-]([01][0-9]|2[0-3]):[0-5][0-9]\Z")
IDENTIFIER = re.compile(r"[A-Za-z][A-Za-z0-9]*\Z")
CLASSIFICATIONS = {"notSet", "sinusRhythm", "atrialFibrillation", "inconclusiveLowHeartRate",
                   "inconclusiveHighHeartRate", "inconclusivePoorReading", "inconclusiveOther", "unrecognized"}
SYMPTOMS = {"notSet", "none", "present"}
EVENT_TYPES = {"pause", "resume", "lap", "marker", "motionPaused", "motionResumed", "segment", "pauseOrResumeRequest"}
TOTALS = ("totalEnergyBurned", "totalDistance", "totalSwimmingStrokeCount", "totalFlightsClimbed")
FIGURES = ("sum", "average", "minimum", "maximum")
COMMON = ("uuid", "type", "kind", "start", "end", "source")
FIELDS = {
    "quantity": COMMON + ("value", "unit", "metadata"),
    "category": COMMON + ("value", "metadata"),
    "correlation": COMMON + ("members", "metadata"),
    "electrocardiogram": COMMON + ("classification", "symptomsStatus", "averageHeartRate", "samplingFrequency",
                                   "numberOfVoltageMeasurements", "voltageMeasurements", "metadata"),
    "workout": COMMON + ("activityType", "duration") + TOTALS + ("events", "activities", "statistics", "routes",
                                                               "metadata"),
    "heartbeatSeries": COMMON + ("count", "heartbeats", "metadata"),
}
LOCATION_COLUMNS = ("timestamp", "latitude", "longitude", "altitude", "speed", "course", "horizontalAccuracy",
                    "verticalAccuracy")


class Invalid(Exception):
    pass


def fields(value, path, names):
    """`value` is an object with exactly the keys `names`, in that order (the writer's fixed order)."""
    if not isinstance(value, dict):
        raise Invalid("at %s: expected an object" % path)
    if list(value) != list(names):
        raise Invalid("at %s: expected the fields %s in order, got %s" % (path, list(names), list(value)))


def string(value, path, pattern=None, non_empty=False):
    if not isinstance(value, str):
        raise Invalid("at %s: expected a string" % path)
    if pattern is not None and not pattern.match(value):
        raise Invalid("at %s: %r is not of the documented form" % (path, value))
    if non_empty and not value:
        raise Invalid("at %s: empty" % path)


def number(value, path, integer=False):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise Invalid("at %s: expected a number" % path)
    if isinstance(value, float) and not math.isfinite(value):
        raise Invalid("at %s: not finite" % path)
    if integer and not isinstance(value, int):
        raise Invalid("at %s: expected an integer" % path)


def unit_value(value, path):
    fields(value, path, ("value", "unit"))
    number(value["value"], path + "/value")
    string(value["unit"], path + "/unit", non_empty=True)


def metadata(value, path):
    if not isinstance(value, dict):
        raise Invalid("at %s: expected an object" % path)
    for key, entry in value.items():
        where = path + "/" + key
        if not isinstance(entry, dict) or len(entry) != 1:
            raise Invalid("at %s: expected a one-key typed value" % where)
        (kind, inner), = entry.items()
        if kind == "string":
            string(inner, where + "/string")
        elif kind == "number":
            number(inner, where + "/number")
        elif kind == "date":
            string(inner, where + "/date", TIMESTAMP)
        elif kind == "quantity":
            unit_value(inner, where + "/quantity")
        else:
            raise Invalid("at %s: unknown metadata value type %r" % (where, kind))


def array(value, path):
    if not isinstance(value, list):
        raise Invalid("at %s: expected an array" % path)
    return value


def interval(value, path):
    string(value["start"], path + "/start", TIMESTAMP)
    string(value["end"], path + "/end", TIMESTAMP)


def workout_events(value, path):
    for index, event in enumerate(array(value, path)):
        where = "%s/%d" % (path, index)
        fields(event, where, ("type", "start", "end", "metadata"))
        if event["type"] not in EVENT_TYPES:
            raise Invalid("at %s/type: %r" % (where, event["type"]))
        interval(event, where)
        metadata(event["metadata"], where + "/metadata")


def workout_statistics(value, path):
    for index, entry in enumerate(array(value, path)):
        where = "%s/%d" % (path, index)
        fields(entry, where, ("type", "start", "end") + FIGURES)
        string(entry["type"], where + "/type", IDENTIFIER)
        interval(entry, where)
        for name in FIGURES:
            if entry[name] is not None:
                unit_value(entry[name], where + "/" + name)


def columns(value, path, names, kinds):
    """`value` is an object of the columns `names`, arrays of equal length; `kinds` checks each column's entries."""
    fields(value, path, names)
    lengths = {len(array(value[name], path + "/" + name)) for name in names}
    if len(lengths) > 1:
        raise Invalid("at %s: columns of different lengths %s" % (path, sorted(lengths)))
    for name in names:
        for index, entry in enumerate(value[name]):
            kinds(name, entry, "%s/%s/%d" % (path, name, index))


def voltage_measurements(value, path):
    if value is None:
        return
    columns(value, path, ("timeSinceSampleStart", "microvolts"), lambda _, entry, where: number(entry, where))
    times = value["timeSinceSampleStart"]
    if any(later < earlier for earlier, later in zip(times, times[1:])) or any(time < 0 for time in times):
        raise Invalid("at %s/timeSinceSampleStart: negative or not in recording order" % path)


def heartbeat_entry(name, entry, where):
    if name == "precededByGap":
        if not isinstance(entry, bool):
            raise Invalid("at %s: expected true or false" % where)
    else:
        number(entry, where)


def heartbeats(value, path):
    if value is None:
        return
    columns(value, path, ("timeSinceSeriesStart", "precededByGap"), heartbeat_entry)
    times = value["timeSinceSeriesStart"]
    if any(later <= earlier for earlier, later in zip(times, times[1:])) or any(time < 0 for time in times):
        raise Invalid("at %s/timeSinceSeriesStart: negative or not ascending" % path)


def location_entry(name, entry, where):
    if name == "timestamp":
        string(entry, where, TIMESTAMP)
    else:
        number(entry, where)


def routes(value, path):
    if value is None:
        return
    for index, route in enumerate(array(value, path)):
        where = "%s/%d" % (path, index)
        fields(route, where, ("locations",))
        columns(route["locations"], where + "/locations", LOCATION_COLUMNS, location_entry)
        for name, bound in (("latitude", 90), ("longitude", 180)):
            if any(abs(degrees) > bound for degrees in route["locations"][name]):
                raise Invalid("at %s/locations/%s: beyond +-%d degrees" % (where, name, bound))


def workout(value, path):
    string(value["activityType"], path + "/activityType", IDENTIFIER)
    number(value["duration"], path + "/duration")
    if value["duration"] < 0:
        raise Invalid("at %s/duration: negative" % path)
    for name in TOTALS:
        if value[name] is not None:
            unit_value(value[name], path + "/" + name)
    workout_events(value["events"], path + "/events")
    for index, activity in enumerate(array(value["activities"], path + "/activities")):
        where = "%s/activities/%d" % (path, index)
        fields(activity, where, ("uuid", "activityType", "start", "end", "events", "statistics", "metadata"))
        string(activity["uuid"], where + "/uuid", UUID)
        string(activity["activityType"], where + "/activityType", IDENTIFIER)
        interval(activity, where)
        workout_events(activity["events"], where + "/events")
        workout_statistics(activity["statistics"], where + "/statistics")
        metadata(activity["metadata"], where + "/metadata")
    workout_statistics(value["statistics"], path + "/statistics")
    routes(value["routes"], path + "/routes")


def sample(value, path, kinds=FIELDS):
    kind = value.get("kind") if isinstance(value, dict) else None
    if kind not in kinds:
        raise Invalid("at %s/kind: expected one of %s" % (path, sorted(kinds)))
    fields(value, path, FIELDS[kind])
    string(value["uuid"], path + "/uuid", UUID)
    string(value["type"], path + "/type", IDENTIFIER)
    string(value["start"], path + "/start", TIMESTAMP)
    string(value["end"], path + "/end", TIMESTAMP)
    fields(value["source"], path + "/source", ("bundleIdentifier", "name"))
    string(value["source"]["bundleIdentifier"], path + "/source/bundleIdentifier")
    string(value["source"]["name"], path + "/source/name")
    if kind == "quantity":
        number(value["value"], path + "/value")
        string(value["unit"], path + "/unit", non_empty=True)
    elif kind == "category":
        number(value["value"], path + "/value", integer=True)
    elif kind == "correlation":
        if not isinstance(value["members"], list):
            raise Invalid("at %s/members: expected an array" % path)
        for index, member in enumerate(value["members"]):
            sample(member, "%s/members/%d" % (path, index), kinds={"quantity": FIELDS["quantity"]})
    elif kind == "workout":
        workout(value, path)
    elif kind == "heartbeatSeries":
        number(value["count"], path + "/count", integer=True)
        if value["count"] < 0:
            raise Invalid("at %s/count: negative" % path)
        heartbeats(value["heartbeats"], path + "/heartbeats")
    else:
        if value["classification"] not in CLASSIFICATIONS:
            raise Invalid("at %s/classification: %r" % (path, value["classification"]))
        if value["symptomsStatus"] not in SYMPTOMS:
            raise Invalid("at %s/symptomsStatus: %r" % (path, value["symptomsStatus"]))
        for name in ("averageHeartRate", "samplingFrequency"):
            if value[name] is not None:
                unit_value(value[name], path + "/" + name)
        number(value["numberOfVoltageMeasurements"], path + "/numberOfVoltageMeasurements", integer=True)
        if value["numberOfVoltageMeasurements"] < 0:
            raise Invalid("at %s/numberOfVoltageMeasurements: negative" % path)
        voltage_measurements(value["voltageMeasurements"], path + "/voltageMeasurements")
    metadata(value["metadata"], path + "/metadata")


def check(document):
    fields(document, "(root)", ("schemaVersion", "batchID", "deviceID", "createdAt", "sections"))
    if document["schemaVersion"] != 1 or isinstance(document["schemaVersion"], bool):
        raise Invalid("at schemaVersion: expected 1")
    string(document["batchID"], "batchID", UUID)
    string(document["deviceID"], "deviceID")
    string(document["createdAt"], "createdAt", TIMESTAMP)
    if not isinstance(document["sections"], list):
        raise Invalid("at sections: expected an array")
    for index, section in enumerate(document["sections"]):
        path = "sections/%d" % index
        fields(section, path, ("type", "samples", "deleted"))
        string(section["type"], path + "/type", IDENTIFIER)
        for name in ("samples", "deleted"):
            if not isinstance(section[name], list):
                raise Invalid("at %s/%s: expected an array" % (path, name))
        for position, item in enumerate(section["samples"]):
            sample(item, "%s/samples/%d" % (path, position))
            if item["type"] != section["type"]:
                raise Invalid("at %s/samples/%d: a %s sample in the %s section"
                              % (path, position, item["type"], section["type"]))
        for position, item in enumerate(section["deleted"]):
            where = "%s/deleted/%d" % (path, position)
            fields(item, where, ("uuid", "metadata"))
            string(item["uuid"], where + "/uuid", UUID)
            metadata(item["metadata"], where + "/metadata")


def problem(document):
    """None for a valid batch document, else the first problem found."""
    try:
        check(document)
    except Invalid as invalid:
        return str(invalid)
    return None
