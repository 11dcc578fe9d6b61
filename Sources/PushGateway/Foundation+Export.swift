// HTTPExchange.swift (kept exactly as the seam in GATEWAY.md has it) names `Date` but imports only
// PushCore; this makes Foundation visible to every file of the module, that one included.
@_exported import Foundation
