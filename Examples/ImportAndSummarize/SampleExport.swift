/// A week of one person's Health export (2026-11-13 to 2026-11-19, recorded at UTC+1), in the format of the
/// Health app's "Export All Health Data": the internal DTD, `ExportDate`, `Me`, then one `Record` per sample. Two
/// things in it are on purpose: a blood-pressure `Correlation` whose members the export also lists as top-level
/// records (they are stored once), and a body mass written `61,5` — a decimal comma, which the importer skips
/// with its line number instead of guessing.
enum SampleExport {
    /// The file's text.
    static let xml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE HealthData [
        <!-- HealthKit Export Version: 14 -->
        <!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary|ClinicalRecord)*)>
        <!ATTLIST HealthData
          locale CDATA #REQUIRED
        >
        <!ELEMENT ExportDate EMPTY>
        <!ATTLIST ExportDate
          value CDATA #REQUIRED
        >
        <!ELEMENT Me EMPTY>
        <!ATTLIST Me
          HKCharacteristicTypeIdentifierDateOfBirth                   CDATA #REQUIRED
          HKCharacteristicTypeIdentifierBiologicalSex                 CDATA #REQUIRED
          HKCharacteristicTypeIdentifierBloodType                     CDATA #REQUIRED
          HKCharacteristicTypeIdentifierFitzpatrickSkinType           CDATA #REQUIRED
        >
        <!ELEMENT Record ((MetadataEntry|HeartRateVariabilityMetadataList)*)>
        <!ATTLIST Record
          type          CDATA #REQUIRED
          unit          CDATA #IMPLIED
          value         CDATA #IMPLIED
          sourceName    CDATA #REQUIRED
          sourceVersion CDATA #IMPLIED
          device        CDATA #IMPLIED
          creationDate  CDATA #IMPLIED
          startDate     CDATA #REQUIRED
          endDate       CDATA #REQUIRED
        >
        <!ELEMENT MetadataEntry EMPTY>
        <!ATTLIST MetadataEntry
          key   CDATA #REQUIRED
          value CDATA #REQUIRED
        >
        <!ELEMENT Correlation ((MetadataEntry|Record)*)>
        <!ATTLIST Correlation
          type          CDATA #REQUIRED
          sourceName    CDATA #REQUIRED
          sourceVersion CDATA #IMPLIED
          device        CDATA #IMPLIED
          creationDate  CDATA #IMPLIED
          startDate     CDATA #REQUIRED
          endDate       CDATA #REQUIRED
        >
        ]>
        <HealthData locale="de_DE">
         <ExportDate value="2026-11-20 10:00:00 +0100"/>
         <Me HKCharacteristicTypeIdentifierDateOfBirth="1990-04-02" HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexFemale" HKCharacteristicTypeIdentifierBloodType="HKBloodTypeNotSet" HKCharacteristicTypeIdentifierFitzpatrickSkinType="HKFitzpatrickSkinTypeNotSet"/>
         <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Zoë’s iPhone" sourceVersion="18.1" unit="count" creationDate="2026-11-13 12:00:00 +0100" startDate="2026-11-13 07:00:00 +0100" endDate="2026-11-13 12:00:00 +0100" value="3120"/>
         <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Zoë’s iPhone" sourceVersion="18.1" unit="count" creationDate="2026-11-13 21:00:00 +0100" startDate="2026-11-13 12:00:00 +0100" endDate="2026-11-13 21:00:00 +0100" value="5210"/>
         <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Zoë’s Apple Watch" sourceVersion="11.1" unit="count/min" creationDate="2026-11-13 08:15:05 +0100" startDate="2026-11-13 08:15:00 +0100" endDate="2026-11-13 08:15:00 +0100" value="64"/>
         <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Zoë’s Apple Watch" sourceVersion="11.1" unit="count/min" creationDate="2026-11-13 18:40:05 +0100" startDate="2026-11-13 18:40:00 +0100" endDate="2026-11-13 18:40:00 +0100" value="88"/>
         <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Zoë’s iPhone" sourceVersion="18.1" unit="count" creationDate="2026-11-14 12:00:00 +0100" startDate="2026-11-14 07:00:00 +0100" endDate="2026-11-14 12:00:00 +0100" value="2890"/>
         <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Zoë’s iPhone" sourceVersion="18.1" unit="count" creationDate="2026-11-14 21:00:00 +0100" startDate="2026-11-14 12:00:00 +0100" endDate="2026-11-14 21:00:00 +0100" value="4400"/>
         <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Zoë’s Apple Watch" sourceVersion="11.1" unit="count/min" creationDate="2026-11-14 08:15:05 +0100" startDate="2026-11-14 08:15:00 +0100" endDate="2026-11-14 08:15:00 +0100" value="66"/>
         <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Zoë’s Apple Watch" sourceVersion="11.1" unit="count/min" creationDate="2026-11-14 18:40:05 +0100" startDate="2026-11-14 18:40:00 +0100" endDate="2026-11-14 18:40:00 +0100" value="92"/>
         <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Zoë’s iPhone" sourceVersion="18.1" unit="count" creationDate="2026-11-15 12:00:00 +0100" startDate="2026-11-15 07:00:00 +0100" endDate="2026-11-15 12:00:00 +0100" value="4010"/>
         <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Zoë’s iPhone" sourceVersion="18.1" unit="count" creationDate="2026-11-15 21:00:00 +0100" startDate="2026-11-15 12:00:00 +0100" endDate="2026-11-15 21:00:00 +0100" value="6120"/>
         <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Zoë’s Apple Watch" sourceVersion="11.1" unit="count/min" creationDate="2026-11-15 08:15:05 +0100" startDate="2026-11-15 08:15:00 +0100" endDate="2026-11-15 08:15:00 +0100" value="61"/>
         <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Zoë’s Apple Watch" sourceVersion="11.1" unit="count/min" creationDate="2026-11-15 18:40:05 +0100" startDate="2026-11-15 18:40:00 +0100" endDate="2026-11-15 18:40:00 +0100" value="79"/>
         <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Zoë’s iPhone" sourceVersion="18.1" unit="count" creationDate="2026-11-16 12:00:00 +0100" startDate="2026-11-16 07:00:00 +0100" endDate="2026-11-16 12:00:00 +0100" value="2250"/>
         <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Zoë’s iPhone" sourceVersion="18.1" unit="count" creationDate="2026-11-16 21:00:00 +0100" startDate="2026-11-16 12:00:00 +0100" endDate="2026-11-16 21:00:00 +0100" value="3980"/>
         <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Zoë’s Apple Watch" sourceVersion="11.1" unit="count/min" creationDate="2026-11-16 08:15:05 +0100" startDate="2026-11-16 08:15:00 +0100" endDate="2026-11-16 08:15:00 +0100" value="70"/>
         <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Zoë’s Apple Watch" sourceVersion="11.1" unit="count/min" creationDate="2026-11-16 18:40:05 +0100" startDate="2026-11-16 18:40:00 +0100" endDate="2026-11-16 18:40:00 +0100" value="101"/>
         <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Zoë’s iPhone" sourceVersion="18.1" unit="count" creationDate="2026-11-17 12:00:00 +0100" startDate="2026-11-17 07:00:00 +0100" endDate="2026-11-17 12:00:00 +0100" value="3600"/>
         <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Zoë’s iPhone" sourceVersion="18.1" unit="count" creationDate="2026-11-17 21:00:00 +0100" startDate="2026-11-17 12:00:00 +0100" endDate="2026-11-17 21:00:00 +0100" value="4870"/>
         <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Zoë’s Apple Watch" sourceVersion="11.1" unit="count/min" creationDate="2026-11-17 08:15:05 +0100" startDate="2026-11-17 08:15:00 +0100" endDate="2026-11-17 08:15:00 +0100" value="63"/>
         <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Zoë’s Apple Watch" sourceVersion="11.1" unit="count/min" creationDate="2026-11-17 18:40:05 +0100" startDate="2026-11-17 18:40:00 +0100" endDate="2026-11-17 18:40:00 +0100" value="85"/>
         <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Zoë’s iPhone" sourceVersion="18.1" unit="count" creationDate="2026-11-18 12:00:00 +0100" startDate="2026-11-18 07:00:00 +0100" endDate="2026-11-18 12:00:00 +0100" value="5120"/>
         <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Zoë’s iPhone" sourceVersion="18.1" unit="count" creationDate="2026-11-18 21:00:00 +0100" startDate="2026-11-18 12:00:00 +0100" endDate="2026-11-18 21:00:00 +0100" value="7010"/>
         <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Zoë’s Apple Watch" sourceVersion="11.1" unit="count/min" creationDate="2026-11-18 08:15:05 +0100" startDate="2026-11-18 08:15:00 +0100" endDate="2026-11-18 08:15:00 +0100" value="59"/>
         <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Zoë’s Apple Watch" sourceVersion="11.1" unit="count/min" creationDate="2026-11-18 18:40:05 +0100" startDate="2026-11-18 18:40:00 +0100" endDate="2026-11-18 18:40:00 +0100" value="112"/>
         <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Zoë’s iPhone" sourceVersion="18.1" unit="count" creationDate="2026-11-19 12:00:00 +0100" startDate="2026-11-19 07:00:00 +0100" endDate="2026-11-19 12:00:00 +0100" value="1980"/>
         <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Zoë’s iPhone" sourceVersion="18.1" unit="count" creationDate="2026-11-19 21:00:00 +0100" startDate="2026-11-19 12:00:00 +0100" endDate="2026-11-19 21:00:00 +0100" value="2650"/>
         <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Zoë’s Apple Watch" sourceVersion="11.1" unit="count/min" creationDate="2026-11-19 08:15:05 +0100" startDate="2026-11-19 08:15:00 +0100" endDate="2026-11-19 08:15:00 +0100" value="67"/>
         <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Zoë’s Apple Watch" sourceVersion="11.1" unit="count/min" creationDate="2026-11-19 18:40:05 +0100" startDate="2026-11-19 18:40:00 +0100" endDate="2026-11-19 18:40:00 +0100" value="76"/>
         <Record type="HKQuantityTypeIdentifierBloodPressureSystolic" sourceName="Zoë’s iPhone" sourceVersion="18.1" unit="mmHg" creationDate="2026-11-18 08:02:00 +0100" startDate="2026-11-18 08:00:00 +0100" endDate="2026-11-18 08:00:00 +0100" value="121"/>
         <Record type="HKQuantityTypeIdentifierBloodPressureDiastolic" sourceName="Zoë’s iPhone" sourceVersion="18.1" unit="mmHg" creationDate="2026-11-18 08:02:00 +0100" startDate="2026-11-18 08:00:00 +0100" endDate="2026-11-18 08:00:00 +0100" value="79"/>
         <Record type="HKQuantityTypeIdentifierBodyMass" sourceName="Zoë’s iPhone" sourceVersion="18.1" unit="kg" creationDate="2026-11-14 07:30:00 +0100" startDate="2026-11-14 07:30:00 +0100" endDate="2026-11-14 07:30:00 +0100" value="61,5"/>
         <Record type="HKQuantityTypeIdentifierBodyMass" sourceName="Zoë’s iPhone" sourceVersion="18.1" unit="kg" creationDate="2026-11-19 07:30:00 +0100" startDate="2026-11-19 07:30:00 +0100" endDate="2026-11-19 07:30:00 +0100" value="61.2"/>
         <Correlation type="HKCorrelationTypeIdentifierBloodPressure" sourceName="Zoë’s iPhone" sourceVersion="18.1" creationDate="2026-11-18 08:02:00 +0100" startDate="2026-11-18 08:00:00 +0100" endDate="2026-11-18 08:00:00 +0100">
          <MetadataEntry key="HKWasUserEntered" value="1"/>
          <Record type="HKQuantityTypeIdentifierBloodPressureSystolic" sourceName="Zoë’s iPhone" sourceVersion="18.1" unit="mmHg" creationDate="2026-11-18 08:02:00 +0100" startDate="2026-11-18 08:00:00 +0100" endDate="2026-11-18 08:00:00 +0100" value="121"/>
          <Record type="HKQuantityTypeIdentifierBloodPressureDiastolic" sourceName="Zoë’s iPhone" sourceVersion="18.1" unit="mmHg" creationDate="2026-11-18 08:02:00 +0100" startDate="2026-11-18 08:00:00 +0100" endDate="2026-11-18 08:00:00 +0100" value="79"/>
         </Correlation>
        </HealthData>
        """
}
