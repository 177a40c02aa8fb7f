/// Whether two doubles agree within a relative tolerance (1e-12 by default), for conversion tests.
func approximately(_ actual: Double, _ expected: Double, tolerance: Double = 1e-12) -> Bool {
    if actual == expected { return true }
    let scale = max(abs(actual), abs(expected))
    return abs(actual - expected) <= tolerance * scale
}
