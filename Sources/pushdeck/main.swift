print("pushdeck")
