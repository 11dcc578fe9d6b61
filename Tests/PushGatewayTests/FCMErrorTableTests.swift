import Foundation
import PushCore
@testable import PushGateway
import PushJSON
import Testing
import TestSupport

/// FCM's error codes (`FCMErrorCode`), row by row: each its HTTP status and gRPC status as FCM's
/// "Error codes for FCM HTTP v1" page lists them (firebase.google.com/docs/cloud-messaging/
/// error-codes, and the v1 reference's `ErrorCode` enum), and the exception class firebase-admin
/// raises when it reads the body pushdeck writes for it.
@Suite struct FCMErrorTableTests {
    /// FCM's table: code, HTTP status, gRPC status, and firebase-admin 7's exception class
    /// (`messaging.py` FCM_ERROR_TYPES, else `_utils.py` by status).
    static let rows: [(FCMErrorCode, Int, String, String)] = [
        (.invalidArgument, 400, "INVALID_ARGUMENT", "InvalidArgumentError"),
        (.unregistered, 404, "NOT_FOUND", "UnregisteredError"),
        (.senderIdMismatch, 403, "PERMISSION_DENIED", "SenderIdMismatchError"),
        (.quotaExceeded, 429, "RESOURCE_EXHAUSTED", "QuotaExceededError"),
        (.unavailable, 503, "UNAVAILABLE", "UnavailableError"),
        (.internal, 500, "INTERNAL", "InternalError"),
        (.thirdPartyAuthError, 401, "UNAUTHENTICATED", "ThirdPartyAuthError"),
    ]

    @Test func everyCodeIsARowAndEachRowIsFCMs() {
        #expect(Set(Self.rows.map(\.0)) == Set(FCMErrorCode.allCases))
        for (code, status, grpc, _) in Self.rows {
            #expect(code.status == status, "\(code)")
            #expect(code.grpcStatus == grpc, "\(code)")
            let body = FCMAPIError(code).json.objectValue?["error"]?.objectValue
            #expect(body?["code"] == .number(JSONNumber(status)))
            #expect(body?["status"] == .string(grpc))
            let detail = body?["details"]?.arrayValue?.first?.objectValue
            #expect(detail?["@type"] == "type.googleapis.com/google.firebase.fcm.v1.FcmError")
            #expect(detail?["errorCode"] == .string(code.rawValue))
        }
    }

    @Test func aBadFieldNamesItsPathInABadRequestDetail() {
        let error = FCMAPIError(.invalidArgument, violations: [(field: "message.data[0].value", description: "Invalid value")])
        let details = error.json.objectValue?["error"]?.objectValue?["details"]?.arrayValue ?? []
        #expect(details.count == 2)
        let badRequest = details.first { $0.objectValue?["@type"] == "type.googleapis.com/google.rpc.BadRequest" }?.objectValue
        #expect(badRequest?["fieldViolations"] == [["field": "message.data[0].value", "description": "Invalid value"]])
    }

    /// The body of each row, and of the 401s for credentials, read by firebase-admin's own error
    /// handling: the exception class a backend catches.
    @Test func firebaseAdminRaisesTheClassOfEachRow() throws {
        var cases: [(String, FCMAPIError)] = Self.rows.map { ($0.3, FCMAPIError($0.0)) }
        cases.append(("UnauthenticatedError", .credentialsMissing))
        cases.append(("UnauthenticatedError", .invalidCredentials(expired: true)))
        cases.append(("PermissionDeniedError", .permissionDenied(project: "other")))
        let input = JSON.array(cases.map { JSON.object(["status": .number(JSONNumber($0.1.status)), "body": .string($0.1.json.prettyText)]) })
        let code = """
            import json, sys, requests
            from firebase_admin import messaging
            for case in json.load(sys.stdin):
                response = requests.models.Response()
                response.status_code = case["status"]
                response._content = case["body"].encode()
                error = requests.exceptions.HTTPError(response=response)
                print(type(messaging._MessagingService._handle_fcm_error(None, error)).__name__)
            """
        let result = try runProgram([try TestVenv.python(), "-c", code], stdin: Data(input.compactText.utf8))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.split(separator: "\n").map(String.init) == cases.map(\.0))
    }
}
