"""shenshi.intake"""
