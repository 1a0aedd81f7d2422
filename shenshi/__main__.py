from shenshi.cli import main

raise SystemExit(main())
