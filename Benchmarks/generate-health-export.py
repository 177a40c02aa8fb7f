#!/usr/bin/env python3
"""generate-health-export.py RECORDS OUT.xml: a synthetic export.xml as the Health app writes it, for timing
`healthflow import`. Four quantity types in turn (steps and distance from a phone, heart rate and active energy
from a watch), 5-minute records, the device attribute with its escaped angle brackets, metadata on half of
the records, non-ASCII source names; about 485 bytes a record.

generate-health-export.py RECORDS OUT.xml --many-types: twenty quantity types in turn instead, six of them
nutrition (records the importer holds until the end, since a food correlation listed later may own them), from
one watch, without metadata children; about 427 bytes a record."""
import sys, datetime
n = int(sys.argv[1]); out = open(sys.argv[2], "w", encoding="utf-8"); many = "--many-types" in sys.argv[3:]
out.write('<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE HealthData [\n<!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary)*)>\n]>\n<HealthData locale="en_US">\n <ExportDate value="2026-11-01 10:00:00 +0100"/>\n <Me HKCharacteristicTypeIdentifierDateOfBirth="1980-01-01" HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexFemale" HKCharacteristicTypeIdentifierBloodType="HKBloodTypeNotSet" HKCharacteristicTypeIdentifierFitzpatrickSkinType="HKFitzpatrickSkinTypeNotSet" HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse="None"/>\n')
watch = 'sourceName="Zoë’s Apple Watch" sourceVersion="10.2" device="&lt;&lt;HKDevice: 0x283a8c9b0&gt;, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,1, software:10.2, creation date:2024-01-02 10:11:12 +0000&gt;"'
phone = 'sourceName="Zoë’s iPhone" sourceVersion="17.2" device="&lt;&lt;HKDevice: 0x283a8c780&gt;, name:iPhone, manufacturer:Apple Inc., model:iPhone, hardware:iPhone15,2, software:17.2, creation date:2024-01-02 10:11:12 +0000&gt;"'
t0 = datetime.datetime(2022, 1, 1)
fmt = lambda t: t.strftime("%Y-%m-%d %H:%M:%S") + " +0100"
buf = []
if many:
    types = [("StepCount", "count", "7"), ("FlightsClimbed", "count", "2"), ("BodyMassIndex", "count", "22.5"),
             ("DistanceWalkingRunning", "km", "0.003"), ("DistanceCycling", "km", "0.01"), ("Height", "m", "1.7"),
             ("ActiveEnergyBurned", "kcal", "0.2"), ("BasalEnergyBurned", "kcal", "1.1"), ("BodyMass", "kg", "70.2"),
             ("LeanBodyMass", "kg", "50.1"), ("BodyFatPercentage", "%", "0.2"), ("OxygenSaturation", "%", "0.97"),
             ("BodyTemperature", "degC", "36.6"), ("DietaryProtein", "g", "3"), ("DietaryFatTotal", "g", "2"),
             ("DietarySugar", "g", "5"), ("DietaryFiber", "g", "1"), ("DietarySodium", "mg", "30"),
             ("DietaryCaffeine", "mg", "20"), ("HeartRate", "count/min", "70")]
    for i in range(n):
        t = t0 + datetime.timedelta(minutes=5 * (i // len(types))); s = fmt(t); e = fmt(t + datetime.timedelta(minutes=5))
        name, unit, value = types[i % len(types)]
        buf.append(f' <Record type="HKQuantityTypeIdentifier{name}" {watch} unit="{unit}" creationDate="{e}" startDate="{s}" endDate="{e}" value="{value}"/>\n')
        if len(buf) >= 10000: out.write("".join(buf)); buf = []
    n = 0
for i in range(n):
    t = t0 + datetime.timedelta(minutes=5 * (i // 4)); s = fmt(t); e = fmt(t + datetime.timedelta(minutes=5))
    k = i % 4
    if k == 0:
        buf.append(f' <Record type="HKQuantityTypeIdentifierStepCount" {phone} unit="count" creationDate="{e}" startDate="{s}" endDate="{e}" value="{i % 500}"/>\n')
    elif k == 1:
        buf.append(f' <Record type="HKQuantityTypeIdentifierHeartRate" {watch} unit="count/min" creationDate="{e}" startDate="{s}" endDate="{s}" value="{60 + i % 60}">\n  <MetadataEntry key="HKMetadataKeyHeartRateMotionContext" value="{i % 3}"/>\n </Record>\n')
    elif k == 2:
        buf.append(f' <Record type="HKQuantityTypeIdentifierActiveEnergyBurned" {watch} unit="kcal" creationDate="{e}" startDate="{s}" endDate="{e}" value="{(i % 97) / 10:.3f}"/>\n')
    else:
        buf.append(f' <Record type="HKQuantityTypeIdentifierDistanceWalkingRunning" {phone} unit="km" creationDate="{e}" startDate="{s}" endDate="{e}" value="{(i % 53) / 1000:.5f}">\n  <MetadataEntry key="HKMetadataKeySyncVersion" value="1"/>\n  <MetadataEntry key="HKMetadataKeySyncIdentifier" value="{i:08x}-sync"/>\n </Record>\n')
    if len(buf) >= 10000: out.write("".join(buf)); buf = []
out.write("".join(buf) + "</HealthData>\n")
