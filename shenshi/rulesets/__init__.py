"""shenshi.rulesets"""
