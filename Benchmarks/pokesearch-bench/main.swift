import Catalog
import Index
import Store
import Foundation

let path = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : "/tmp/r1.sqlite"
let t0 = monotonicSeconds()
let store = try Store(path: path, readOnly: true)
let t1 = monotonicSeconds()
let s = try Catalog.loadIndex(store)
let t2 = monotonicSeconds()
let built = try Catalog.buildIndex(store)
let t3 = monotonicSeconds()
print("open \((t1-t0)*1000) load \((t2-t1)*1000) build(all) \((t3-t2)*1000) builder \(built.buildMilliseconds)")
print("docs \(s.docCount) keys \(s.keys.count) keybytes \(s.keys.bytes.count) postings \(s.postings.count) nodes \(s.nodeDepth.count) grams \(s.gramCodes.count) gramKeys \(s.gramKeys.count) names \(s.nameLanguage.count) nameBytes \(s.nameTexts.bytes.count) total \(s.byteSize)")
