import Testing

/// Every example in the documentation compiles: each ```` ```swift ```` block of a DocC article or a `///` comment
/// (in `FencedExamples.documentedFolders`) is a verbatim copy of code in this test target, which the compiler builds
/// and a test runs.
@Suite struct FencedExamplesTests {
    static let howToFix = """
        Every ```swift block in a DocC article or a /// comment must be compiled code. Either
          • copy the block verbatim (any indentation) into a test in Tests/DocExamplesTests/ — the file named for \
        the article, e.g. PromisesExamples.swift; shared fakes live in Support/ — and let the test check what the \
        example claims (`swift test --filter DocExamplesTests`); or
          • delete it, if it only restates the signature: a doc comment says what the code cannot (a rule, a unit, \
        a guarantee, a complexity), and teaching code belongs in the module's DocC article.
        """

    @Test func everySwiftExampleInTheDocumentationIsCompiledInThisTarget() throws {
        let compiled = try FencedExamples.compiledCode()
        let uncompiled = try FencedExamples.documentationBlocks().filter { block in
            block.language == "swift" && !compiled.contains(block.lines)
        }
        #expect(
            uncompiled.isEmpty,
            """
            \(uncompiled.count) Swift example(s) appear in no file of Tests/DocExamplesTests:
            \(uncompiled.map { "  \($0): \($0.lines.first { !$0.isEmpty } ?? "")" }.joined(separator: "\n"))
            \(Self.howToFix)
            """)
    }

    @Test func everyFenceInTheDocumentationNamesItsLanguage() throws {
        let unnamed = try FencedExamples.documentationBlocks().filter { $0.language.isEmpty }
        #expect(
            unnamed.isEmpty,
            """
            \(unnamed.count) fence(s) name no language:
            \(unnamed.map { "  \($0)" }.joined(separator: "\n"))
            Write ```swift for Swift (it must then be compiled: see below), or the language it is: ```text, \
            ```json, ```sh, ```mermaid.
            \(Self.howToFix)
            """)
    }

    @Test func findsTheSwiftBlocksOfADocComment() {
        let source = """
            /// Adds one.
            ///
            /// ```swift
            ///     let two = addOne(1)
            ///     #expect(two == 2)
            /// ```
            ///
            /// ```text
            /// not Swift
            /// ```
            func addOne(_ value: Int) -> Int { value + 1 }
            // ```swift (a plain comment: not documentation)
            """
        let blocks = FencedExamples.blocks(in: source, path: "A.swift", commentPrefix: "///")
        #expect(blocks.map(\.description) == ["A.swift:3", "A.swift:8"])
        #expect(blocks.map(\.language) == ["swift", "text"])
        #expect(blocks.first?.lines == ["let two = addOne(1)", "#expect(two == 2)"])
    }

    @Test func findsTheBlocksOfAnArticleIncludingUnnamedAndIndentedFences() {
        let article = """
            # Title

            ```
            plain
            ```

            - A list item:
              ```swift
              let one = 1
              ```
            """
        let blocks = FencedExamples.blocks(in: article, path: "A.md", commentPrefix: nil)
        #expect(blocks.map(\.description) == ["A.md:3", "A.md:8"])
        #expect(blocks.map(\.language) == ["", "swift"])
        #expect(blocks.last?.lines == ["let one = 1"])
    }

    @Test func aBlockMatchesCodeAtAnyIndentationButOnlyVerbatim() {
        let file = [
            "func example() {",
            "    let total = [1, 2].reduce(0, +)",
            "",
            "    #expect(total == 3)",
            "}",
        ]
        let code = FencedExamples.CompiledCode(files: [file])
        #expect(code.contains(["let total = [1, 2].reduce(0, +)", "", "#expect(total == 3)"]))
        #expect(code.contains(["let total = [1, 2].reduce(0, +)", ""]))
        #expect(!code.contains(["let total = [1, 2].reduce(0, +)", "#expect(total == 3)"]))
        #expect(!code.contains(["let total = [1, 2].reduce(1, +)"]))
        #expect(!code.contains(["    let total = [1, 2].reduce(0, +)", "#expect(total == 3)"]))
        #expect(!code.contains(["}", "let total = [1, 2].reduce(0, +)"]))
    }
}
