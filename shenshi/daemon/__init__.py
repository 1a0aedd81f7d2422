"""shenshi.daemon"""
