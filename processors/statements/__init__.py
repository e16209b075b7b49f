"""Bank statements from any bank: the transaction table found from general evidence
(`table`), its transactions and balances read (`reading`) and returned as data
(`output`). docs/statements.md describes the method and its measured accuracy."""
