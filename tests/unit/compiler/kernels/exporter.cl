// Exports the function importer.cl calls.
int linked_helper(int x) { return x * x + 1; }
