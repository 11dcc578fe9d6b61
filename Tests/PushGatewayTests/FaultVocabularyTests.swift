import PushCore
import PushGateway
import Testing

/// The gateway's fault vocabulary: which of each vendor's paths are its auth endpoints (a fault
/// answers them only when its path names them).
@Suite struct FaultVocabularyTests {
    @Test func theGatewaysVocabularyNamesFCMsAndGetuisAuthEndpoints() {
        let vendors = ProviderRoutes.faultVocabulary.vendors
        #expect(vendors[.fcm]?.isAuth("/token") == true && vendors[.fcm]?.isAuth("/v1/projects/p/messages:send") == false)
        #expect(vendors[.getui]?.isAuth("/v2/G5lfFkQZ008VoZUXydA2r2/auth") == true)
        #expect(vendors[.getui]?.isAuth("/v2/G5lfFkQZ008VoZUXydA2r2/push/single/cid") == false)
        #expect(vendors[.apns]?.isAuth("/3/device/abcd") == false && vendors[.jpush]?.isAuth("/v3/push") == false)
    }
}
