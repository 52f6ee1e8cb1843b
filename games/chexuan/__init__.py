"""扯旋 Che Xuan (32 cards, head and tail); its rules are docs/rules/chexuan.md."""
