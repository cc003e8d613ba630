package dev.wellstream.fhirvalidator;

import ca.uhn.fhir.context.FhirContext;
import ca.uhn.fhir.context.support.DefaultProfileValidationSupport;
import ca.uhn.fhir.validation.FhirValidator;
import ca.uhn.fhir.validation.SingleValidationMessage;
import ca.uhn.fhir.validation.ValidationOptions;
import ca.uhn.fhir.validation.ValidationResult;
import com.google.gson.Gson;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import org.hl7.fhir.common.hapi.validation.support.CommonCodeSystemsTerminologyService;
import org.hl7.fhir.common.hapi.validation.support.InMemoryTerminologyServerValidationSupport;
import org.hl7.fhir.common.hapi.validation.support.SnapshotGeneratingValidationSupport;
import org.hl7.fhir.common.hapi.validation.support.ValidationSupportChain;
import org.hl7.fhir.common.hapi.validation.validator.FhirInstanceValidator;

/**
 * HL7's FHIR R4 validator (as HAPI FHIR ships it) as one long-running process, so a test suite pays
 * the start-up (loading the core definitions, some seconds) once and then validates many resources.
 *
 * Protocol, one JSON object per line:
 *   stdin:  {"id": "...", "resource": {...FHIR JSON...}, "profiles": ["http://hl7.org/fhir/StructureDefinition/heartrate"]}
 *   stdout: {"id": "...", "messages": [{"severity": "error", "location": "Observation.code", "message": "..."}]}
 * The first stdout line is {"ready": true, "fhirVersion": "4.0.1"} once a first resource has been
 * validated (so every definition is loaded); anything else the validator says goes to stderr.
 *
 * No terminology server is reachable from the test machines, so codes are checked by the validator's
 * in-memory terminology (FHIR's own code systems, value sets it can expand, and UCUM through
 * org.fhir:ucum); LOINC codes are not checked here beyond what the profiles fix.
 */
public final class ValidatorServer {
  private ValidatorServer() {}

  public static void main(String[] args) throws Exception {
    PrintWriter out = new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), false);
    FhirContext ctx = FhirContext.forR4();
    ValidationSupportChain chain = new ValidationSupportChain(
        new DefaultProfileValidationSupport(ctx),
        new CommonCodeSystemsTerminologyService(ctx),
        new InMemoryTerminologyServerValidationSupport(ctx),
        new SnapshotGeneratingValidationSupport(ctx));
    FhirInstanceValidator module = new FhirInstanceValidator(chain);
    // A reference the validator cannot resolve (Patient/…, Device/… of the same server) is expected
    // in single resources; unknown extensions are not (the mapping declares none).
    module.setAnyExtensionsAllowed(false);
    FhirValidator validator = ctx.newValidator().registerValidatorModule(module);

    String warmUp = "{\"resourceType\":\"Observation\",\"status\":\"final\",\"code\":{\"coding\":[{\"system\":\"http://loinc.org\",\"code\":\"8867-4\"}]},"
        + "\"subject\":{\"reference\":\"Patient/x\"},\"effectiveDateTime\":\"2024-01-01T00:00:00Z\","
        + "\"valueQuantity\":{\"value\":60,\"unit\":\"/min\",\"system\":\"http://unitsofmeasure.org\",\"code\":\"/min\"},"
        + "\"category\":[{\"coding\":[{\"system\":\"http://terminology.hl7.org/CodeSystem/observation-category\",\"code\":\"vital-signs\"}]}]}";
    validator.validateWithResult(warmUp, new ValidationOptions().addProfile("http://hl7.org/fhir/StructureDefinition/heartrate"));
    JsonObject ready = new JsonObject();
    ready.addProperty("ready", true);
    ready.addProperty("fhirVersion", ctx.getVersion().getVersion().getFhirVersionString());
    out.println(ready);
    out.flush();

    Gson gson = new Gson();
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    String line;
    while ((line = in.readLine()) != null) {
      if (line.isBlank()) continue;
      JsonObject answer = new JsonObject();
      try {
        JsonObject request = JsonParser.parseString(line).getAsJsonObject();
        answer.add("id", request.get("id"));
        ValidationOptions options = new ValidationOptions();
        if (request.has("profiles")) {
          for (JsonElement p : request.getAsJsonArray("profiles")) options.addProfile(p.getAsString());
        }
        ValidationResult result = validator.validateWithResult(gson.toJson(request.get("resource")), options);
        JsonArray messages = new JsonArray();
        for (SingleValidationMessage m : result.getMessages()) {
          JsonObject o = new JsonObject();
          o.addProperty("severity", m.getSeverity().getCode());
          o.addProperty("location", m.getLocationString());
          o.addProperty("message", m.getMessage());
          messages.add(o);
        }
        answer.add("messages", messages);
      } catch (Exception e) {
        // A line that is not a request is answered (the caller waits for it), never fatal.
        answer.addProperty("failure", e.toString());
      }
      out.println(answer);
      out.flush();
    }
  }
}
