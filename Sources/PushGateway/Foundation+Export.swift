// HTTPExchange.swift (the seam between the transport and the routes, kept unchanged) names `Date`
// but imports only PushCore; this makes Foundation visible to every file of the module, that one
// included.
@_exported import Foundation
