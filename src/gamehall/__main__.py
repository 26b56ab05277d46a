from gamehall.cli import main

main()
