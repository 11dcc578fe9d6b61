print("pushdeck-bench")
