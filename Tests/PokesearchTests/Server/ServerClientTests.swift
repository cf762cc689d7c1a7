import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `pokesearch search` and `complete` through a running server, the fallback without one,
/// and shell completion through them.
@Suite("Server clients")
struct ServerClientTests {
    func requestsServed(_ server: RunningServer) throws -> Int {
        try TestClient(path: server.socketPath).requestJSON("STATS")["requests"] as? Int ?? -1
    }

    @Test(arguments: [
        ["search", "pikachu", "--limit", "5", "--json"],
        ["search", "fire", "dragon", "--limit", "5"],
        ["search", "type:water", "--kind", "pokemon", "--sort", "speed", "--desc", "--limit", "4", "--lang", "de"],
        // A name shown twice is followed by each one's slug, read from the server's answer.
        ["search", "poke", "ball", "--kind", "item", "--limit", "2"],
        ["complete", "char", "--limit", "5"],
        ["complete", "fire", "dragon"],
        ["complete", "thunder", "--kind", "move", "--json"],
        ["complete", "bulba", "--slugs"],
    ])
    func sameOutputWithAndWithoutTheServer(arguments: [String]) throws {
        let server = try RunningServer()
        let common = ["--db", ServerFixture.database, "--socket", server.socketPath]
        let before = try requestsServed(server)
        let served = ServerFixture.run(arguments + common)
        let afterServed = try requestsServed(server)
        let local = ServerFixture.run(arguments + common + ["--no-server"])
        let afterLocal = try requestsServed(server)
        #expect(served.status == 0)
        #expect(!served.stdout.isEmpty)
        #expect(served.stdout == local.stdout)
        // STATS + the request went to the server (the STATS above counts too); --no-server sent nothing.
        #expect(afterServed - before == 3)
        #expect(afterLocal - afterServed == 1)
    }

    @Test func queryEndingInOptionSyntaxIsAnsweredLocally() throws {
        let server = try RunningServer()
        let arguments = ["search", "pikachu", "limit(2)", "--json", "--db", ServerFixture.database, "--socket", server.socketPath]
        let before = try requestsServed(server)
        let served = ServerFixture.run(arguments)
        // The server would read "limit(2)" as an option: the command searched itself.
        #expect(try requestsServed(server) - before == 1)
        #expect(served.stdout == ServerFixture.run(arguments + ["--no-server"]).stdout)
    }

    @Test func queryErrorsAreTheSameThroughTheServer() throws {
        let server = try RunningServer()
        let common = ["search", "hp>>", "--db", ServerFixture.database, "--socket", server.socketPath]
        let served = ServerFixture.run(common)
        let local = ServerFixture.run(common + ["--no-server"])
        #expect(served.status == 2)
        #expect(served.stderr == local.stderr)
        #expect(served.stderr.contains("bad query"))
    }

    @Test func fallsBackToTheDatabaseWithoutAServer() throws {
        let directory = ServerFixture.temporaryDirectory()
        let result = ServerFixture.run(["complete", "pika", "--db", ServerFixture.database, "--socket", directory + "/none.sock"])
        #expect(result.status == 0)
        #expect(result.stdout.split(separator: "\n").first == "Pikachu")
    }

    @Test func serverOnAnotherDatabaseIsNotUsed() throws {
        let server = try RunningServer()
        let directory = ServerFixture.temporaryDirectory()
        let copy = directory + "/copy.sqlite"
        try FileManager.default.copyItem(atPath: ServerFixture.database, toPath: copy)
        let before = try requestsServed(server)
        let result = ServerFixture.run(["search", "pikachu", "--db", copy, "--socket", server.socketPath])
        #expect(result.status == 0)
        // Only the client's STATS (which told it the server has another database) and ours.
        #expect(try requestsServed(server) - before == 2)
    }

    /// Someone else listening at the socket path (another user's process at a path under
    /// /tmp) would read every query and choose the answers: the client asks only a server
    /// running as its own user, and answers from the database otherwise.
    @Test(.enabled(if: RunningServer.canRunAsAnotherUser, "needs root and setpriv to start a server as another user"))
    func serverOfAnotherUserIsNotUsed() throws {
        let nobody: uid_t = 65534
        // A directory and a database the other user can use (the fixture's directories are
        // private to us).
        var template = Array("/tmp/pokesearch-other-user-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw TestFailure("mkdtemp: \(String(cString: strerror(errno)))") }
        let directory = String(cString: made)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(chmod(directory, 0o755) == 0)
        let database = directory + "/shared.sqlite"
        try FileManager.default.copyItem(atPath: ServerFixture.database, toPath: database)
        for path in [directory, database] { #expect(chown(path, nobody, nobody) == 0) }
        let server = try RunningServer(database: database, socketPath: directory + "/s.sock", user: nobody)
        let before = try requestsServed(server)
        let result = ServerFixture.run(["search", "pikachu", "--limit", "1", "--db", database, "--socket", server.socketPath])
        #expect(result.status == 0)
        #expect(result.stdout.contains("Pikachu"))
        // Only our own STATS: the client sent nothing, not even its STATS.
        #expect(try requestsServed(server) - before == 1)
    }

    /// Runs a shell's completion for a command line: `shell` and its arguments, with the
    /// built pokesearch first on the PATH, the fixture database and the given socket; the
    /// candidates it prints, one per line.
    func completions(_ shell: String, _ arguments: [String], socket: String, database: String = ServerFixture.database) throws -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: shell)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = (ServerFixture.binary as NSString).deletingLastPathComponent + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        environment["POKESEARCH_DB"] = database
        environment["POKESEARCH_SOCKET"] = socket
        // History recorded as it is for a person at the shell: the tests see what TAB records.
        environment["POKESEARCH_NO_HISTORY"] = nil
        // fish keeps its history and variables under $HOME: a scratch one.
        environment["HOME"] = ServerFixture.temporaryDirectory()
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        // fish prints "candidate<TAB>description".
        return String(decoding: output, as: UTF8.self).split(separator: "\n").map { String($0.prefix { $0 != "\t" }) }
    }

    func script(_ name: String) -> String { ServerFixture.repository.appendingPathComponent("completions/\(name)").path }

    /// Runs bash's completion function for `words` (the last one being completed).
    func bashCompletions(_ words: [String], socket: String, database: String = ServerFixture.database) throws -> [String] {
        let quoted = words.map { "'\($0)'" }.joined(separator: " ")
        return try completions("/bin/bash", ["-c", "source '\(script("pokesearch.bash"))'; COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); COMP_LINE=\"${COMP_WORDS[*]}\"; COMP_POINT=${#COMP_LINE}; _pokesearch; printf '%s\\n' \"${COMPREPLY[@]}\""],
                               socket: socket, database: database)
    }

    /// Runs zsh's completion function for `words` (the last one being completed) the way
    /// compsys autoloads it (the file's body runs with `words`, `CURRENT` and `PREFIX` set),
    /// with stand-ins for the builtins it calls that print what they are given and that
    /// matches the prefix (all of it with `-U`, as compadd does).
    func zshCompletions(_ words: [String], socket: String, database: String = ServerFixture.database) throws -> [String] {
        let harness = #"""
            compadd() {
                local unfiltered=0 rest=0 a
                for a in "$@"; do
                    if (( rest )) || [[ $a != -* ]]; then [[ $unfiltered == 1 || $a == ${PREFIX}* ]] && print -r -- "$a"
                    elif [[ $a == -- ]]; then rest=1
                    elif [[ $a == -U ]]; then unfiltered=1
                    fi
                done
            }
            _describe() {
                local entry found=1
                for entry in ${(P)4}; do [[ ${entry%%:*} == ${PREFIX}* ]] && { print -r -- "${entry%%:*}"; found=0 }; done
                return found
            }
            _files() { print -r -- '<files>' }
            words=("${@:2}"); CURRENT=${#words}; PREFIX=${words[CURRENT]}
            source "$1"
            """#
        return try completions("/usr/bin/zsh", ["-f", "-c", harness, "zsh", script("_pokesearch")] + words, socket: socket, database: database)
    }

    /// Asks fish for the completions of `commandLine` (`complete -C`), with our script loaded.
    func fishCompletions(_ commandLine: String, socket: String, database: String = ServerFixture.database) throws -> [String] {
        try completions("/usr/bin/fish", ["--no-config", "-c", "source $argv[1]; complete -C $argv[2]", script("pokesearch.fish"), commandLine],
                        socket: socket, database: database)
    }

    /// Every TAB runs `pokesearch complete`: in every shell, with and without a server,
    /// pressing it leaves `history` as it was.
    @Test func tabPressesLeaveTheHistoryUnchanged() throws {
        let directory = ServerFixture.temporaryDirectory()
        let database = directory + "/history.sqlite"
        try FileManager.default.copyItem(atPath: ServerFixture.database, toPath: database)
        #expect(ServerFixture.run(["pikachu", "--db", database], environment: ["POKESEARCH_NO_HISTORY": ""]).status == 0)
        let server = try RunningServer(database: database)
        for socket in [directory + "/none.sock", server.socketPath] {
            for word in ["garcho", "dracau", "mr", "char"] {
                #expect(try !bashCompletions(["pokesearch", "show", word], socket: socket, database: database).isEmpty)
                if FileManager.default.isExecutableFile(atPath: "/usr/bin/zsh") {
                    #expect(try !zshCompletions(["pokesearch", word], socket: socket, database: database).isEmpty)
                }
                if FileManager.default.isExecutableFile(atPath: "/usr/bin/fish") {
                    _ = try fishCompletions("pokesearch \(word)", socket: socket, database: database)
                }
            }
        }
        let history = ServerFixture.run(["history", "--json", "--db", database])
        #expect(history.stdout.split(separator: "\n").map { historyQuery(String($0)) } == ["pikachu"], "\(history.stdout)")
    }

    /// A name two kinds share is offered as each kind:slug, which `show` takes; `show -<TAB>`
    /// offers the options `show` takes.
    @Test func completionOffersKindSlugsAndTheCommandsOwnOptions() throws {
        let noServer = ServerFixture.temporaryDirectory() + "/none.sock"
        #expect(try Set(bashCompletions(["pokesearch", "show", "metronom"], socket: noServer)) == ["move:metronome", "item:metronome"])
        let options = try Set(bashCompletions(["pokesearch", "show", "--"], socket: noServer))
        #expect(options.contains("--kind") && !options.contains("--sort") && !options.contains("--limit"), "\(options)")
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/zsh") {
            let zsh = try Set(zshCompletions(["pokesearch", "show", "--"], socket: noServer))
            #expect(zsh.contains("--kind") && !zsh.contains("--sort"), "\(zsh)")
        }
        #expect(ServerFixture.run(["show", "move:metronome", "--db", ServerFixture.database]).status == 0)
    }

    @Test func bashCompletesCommandsOptionsAndNames() throws {
        let directory = ServerFixture.temporaryDirectory()
        let noServer = directory + "/none.sock"
        #expect(try bashCompletions(["pokesearch", "com"], socket: noServer) == ["complete"])
        #expect(try Set(bashCompletions(["pokesearch", "s"], socket: noServer)) == ["search", "serve", "show", "sprite"])
        #expect(try bashCompletions(["pokesearch", "search", "--li"], socket: noServer) == ["--limit"])
        #expect(try Set(bashCompletions(["pokesearch", "search", "--kind", "m"], socket: noServer)) == ["move"])
        #expect(try bashCompletions(["pokesearch", "show", "pikac"], socket: noServer).contains("pikachu"))
        #expect(try bashCompletions(["pokesearch", "show", "thunderb"], socket: noServer).contains("thunderbolt"))
        // The same through a running server.
        let server = try RunningServer()
        let before = try requestsServed(server)
        #expect(try bashCompletions(["pokesearch", "bulbas"], socket: server.socketPath).contains("bulbasaur"))
        #expect(try requestsServed(server) > before + 1)
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/zsh"), "zsh is not installed (.ci/run installs it)"))
    func zshCompletesCommandsOptionsAndNames() throws {
        let noServer = ServerFixture.temporaryDirectory() + "/none.sock"
        #expect(try zshCompletions(["pokesearch", "com"], socket: noServer) == ["complete"])
        #expect(try Set(zshCompletions(["pokesearch", "s"], socket: noServer)) == ["search", "serve", "show", "sprite"])
        #expect(try zshCompletions(["pokesearch", "search", "--li"], socket: noServer) == ["--limit"])
        #expect(try zshCompletions(["pokesearch", "search", "--kind", "m"], socket: noServer) == ["move"])
        #expect(try zshCompletions(["pokesearch", "search", "--db", "x"], socket: noServer) == ["<files>"])
        #expect(try zshCompletions(["pokesearch", "fav", ""], socket: noServer) == ["add", "remove", "rm", "list"])
        #expect(try zshCompletions(["pokesearch", "show", "pikac"], socket: noServer).contains("pikachu"))
        // No command starts so: the word is a name to search for.
        #expect(try zshCompletions(["pokesearch", "garch"], socket: noServer).contains("garchomp"))
        #expect(try zshCompletions(["pokesearch", "serve", "x"], socket: noServer).isEmpty)
        // The same through a running server.
        let server = try RunningServer()
        let before = try requestsServed(server)
        #expect(try zshCompletions(["pokesearch", "show", "thunderb"], socket: server.socketPath).contains("thunderbolt"))
        #expect(try requestsServed(server) > before + 1)
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/fish"), "fish is not installed (.ci/run installs it)"))
    func fishCompletesCommandsOptionsAndNames() throws {
        let noServer = ServerFixture.temporaryDirectory() + "/none.sock"
        #expect(try fishCompletions("pokesearch com", socket: noServer).contains("complete"))
        #expect(try fishCompletions("pokesearch search --li", socket: noServer) == ["--limit"])
        #expect(try fishCompletions("pokesearch search --kind m", socket: noServer) == ["move"])
        #expect(try fishCompletions("pokesearch fav ", socket: noServer).contains("remove"))
        #expect(try fishCompletions("pokesearch show pikac", socket: noServer).contains("pikachu"))
        #expect(try fishCompletions("pokesearch serve x", socket: noServer).isEmpty)
        // The same through a running server.
        let server = try RunningServer()
        let before = try requestsServed(server)
        #expect(try fishCompletions("pokesearch bulbas", socket: server.socketPath).contains("bulbasaur"))
        #expect(try requestsServed(server) > before + 1)
    }
}
