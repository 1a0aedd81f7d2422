"""shenshi.store"""
